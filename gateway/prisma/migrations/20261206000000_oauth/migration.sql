-- OAuth 2.1 for /mcp: the authorization server's records (hashed ids) and the grants people approve in the console.
CREATE TABLE "oauth_records" (
    "model" TEXT NOT NULL,
    "id_hash" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "grant_id" TEXT,
    "uid" TEXT,
    "user_code" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "consumed_at" TIMESTAMPTZ(3),

    CONSTRAINT "oauth_records_pkey" PRIMARY KEY ("model","id_hash")
);
CREATE INDEX "oauth_records_grant_idx" ON "oauth_records"("grant_id");
CREATE INDEX "oauth_records_uid_idx" ON "oauth_records"("uid");

CREATE TABLE "oauth_grants" (
    "id" UUID NOT NULL,
    "grant_id" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_name" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "person_id" TEXT NOT NULL,
    "approved_by_key_id" UUID NOT NULL,
    "scopes" TEXT[],
    "allow_writes" BOOLEAN NOT NULL,
    "allowed_board_ids" TEXT[],
    "restrict_boards" BOOLEAN NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "oauth_grants_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "oauth_grants_grant_id_key" ON "oauth_grants"("grant_id");
CREATE INDEX "oauth_grants_owner_idx" ON "oauth_grants"("account_id", "person_id");
