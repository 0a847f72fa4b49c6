-- pg_trgm lives in the shared schema `public` so every service can use it.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

-- CreateEnum
CREATE TYPE "ScriptStatus" AS ENUM ('draft', 'ready', 'review', 'completed');

-- CreateEnum
CREATE TYPE "ChangeKind" AS ENUM ('created', 'updated', 'trashed', 'restored');

-- CreateTable
CREATE TABLE "scripts" (
    "id" UUID NOT NULL,
    "account_id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "status" "ScriptStatus" NOT NULL,
    "revision" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "deleted_at" TIMESTAMPTZ(3),
    "created_by" TEXT NOT NULL,
    "updated_by" TEXT NOT NULL,

    CONSTRAINT "scripts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "create_requests" (
    "account_id" TEXT NOT NULL,
    "key" UUID NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "create_requests_pkey" PRIMARY KEY ("account_id","key")
);

-- CreateTable
CREATE TABLE "feed_heads" (
    "account_id" TEXT NOT NULL,
    "last_seq" BIGINT NOT NULL,

    CONSTRAINT "feed_heads_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "changes" (
    "account_id" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "script_id" UUID NOT NULL,
    "revision" INTEGER NOT NULL,
    "kind" "ChangeKind" NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "changes_pkey" PRIMARY KEY ("account_id","seq")
);

-- CreateIndex
CREATE INDEX "scripts_account_recent_idx" ON "scripts"("account_id", "updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "scripts_title_trgm_idx" ON "scripts" USING GIN ("title" public.gin_trgm_ops);

-- CreateIndex
CREATE INDEX "scripts_text_trgm_idx" ON "scripts" USING GIN ("text" public.gin_trgm_ops);

-- CreateIndex
CREATE INDEX "create_requests_created_at_idx" ON "create_requests"("created_at");
