-- 2025-era resource subscriptions: a client session's URIs, found by any replica that holds the session's stream.
CREATE TABLE "mcp_resource_subscriptions" (
    "session" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "uri" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "mcp_resource_subscriptions_pkey" PRIMARY KEY ("session", "uri")
);
CREATE INDEX "mcp_resource_subscriptions_account_uri_idx" ON "mcp_resource_subscriptions"("account_id", "uri");
CREATE INDEX "mcp_resource_subscriptions_created_idx" ON "mcp_resource_subscriptions"("created_at");
