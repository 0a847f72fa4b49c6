-- MCP tasks: a tools/call that returns at once and is polled; any gateway replica answers for it.
CREATE TABLE "mcp_tasks" (
    "id" UUID NOT NULL,
    "key_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "status_message" TEXT,
    "result" JSONB,
    "error" JSONB,
    "ttl_ms" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "heartbeat_at" TIMESTAMPTZ(3) NOT NULL,
    "replica" TEXT NOT NULL,

    CONSTRAINT "mcp_tasks_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "mcp_tasks_key_created_idx" ON "mcp_tasks"("key_id", "created_at" DESC);
CREATE INDEX "mcp_tasks_status_heartbeat_idx" ON "mcp_tasks"("status", "heartbeat_at");
CREATE INDEX "mcp_tasks_expires_idx" ON "mcp_tasks"("expires_at");
