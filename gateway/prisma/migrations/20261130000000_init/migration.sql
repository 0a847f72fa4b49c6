-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "prefix" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "person_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "scopes" TEXT[],
    "allow_writes" BOOLEAN NOT NULL,
    "allowed_board_ids" TEXT[],
    "restrict_boards" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tool_calls" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "key_id" UUID NOT NULL,
    "account_id" TEXT NOT NULL,
    "person_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "duration_ms" INTEGER NOT NULL,

    CONSTRAINT "tool_calls_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_account_idx" ON "api_keys"("account_id");

-- CreateIndex
CREATE INDEX "tool_calls_key_at_idx" ON "tool_calls"("key_id", "at");
