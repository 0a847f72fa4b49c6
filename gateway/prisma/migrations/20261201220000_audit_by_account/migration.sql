-- GET /v1/audit and `bancada audit` read one account's calls newest first.
CREATE INDEX "tool_calls_account_id_idx" ON "tool_calls"("account_id", "id" DESC);
