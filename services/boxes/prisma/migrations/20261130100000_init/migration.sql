-- CreateEnum
CREATE TYPE "BoxState" AS ENUM ('creating', 'running', 'sleeping', 'suspended', 'stopped', 'deleting', 'deleted');

-- CreateEnum
CREATE TYPE "JobStatus" AS ENUM ('running', 'succeeded', 'failed', 'killed');

-- CreateTable
CREATE TABLE "boxes" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "live_name" TEXT,
    "state" "BoxState" NOT NULL,
    "state_reason" TEXT,
    "operation" JSONB,
    "template" TEXT NOT NULL,
    "template_version" TEXT NOT NULL,
    "snapshot_id" TEXT,
    "vcpus" INTEGER NOT NULL,
    "mem_mib" INTEGER NOT NULL,
    "data_gib" INTEGER NOT NULL,
    "auto_suspend_seconds" INTEGER NOT NULL,
    "max_run_minutes" INTEGER NOT NULL,
    "delete_after_seconds" INTEGER,
    "metadata" JSONB NOT NULL,
    "kind" TEXT,
    "secrets" TEXT[],
    "setup" JSONB,
    "task" JSONB,
    "setup_job_id" TEXT,
    "task_job_id" TEXT,
    "driver" TEXT NOT NULL,
    "node" TEXT NOT NULL,
    "runtime" JSONB,
    "enforcement" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_by_agent" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "state_changed_at" TIMESTAMPTZ(3) NOT NULL,
    "running_since" TIMESTAMPTZ(3),
    "last_activity_at" TIMESTAMPTZ(3) NOT NULL,
    "deleted_at" TIMESTAMPTZ(3),
    "version" INTEGER NOT NULL,

    CONSTRAINT "boxes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "box_intervals" (
    "id" BIGSERIAL NOT NULL,
    "box_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "state" "BoxState" NOT NULL,
    "reason" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    "vcpus" INTEGER NOT NULL,
    "mem_mib" INTEGER NOT NULL,
    "data_gib" INTEGER NOT NULL,
    "kind" TEXT,
    "person_id" TEXT NOT NULL,
    "agent_id" TEXT NOT NULL,

    CONSTRAINT "box_intervals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "jobs" (
    "id" TEXT NOT NULL,
    "box_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT,
    "command" JSONB NOT NULL,
    "cwd" TEXT NOT NULL,
    "env_names" TEXT[],
    "status" "JobStatus" NOT NULL,
    "exit_code" INTEGER,
    "signal" TEXT,
    "status_reason" TEXT,
    "runtime" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    "created_by" TEXT NOT NULL,
    "created_by_agent" TEXT NOT NULL,

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_keys" (
    "account_id" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "resource_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("account_id","tool","key")
);

-- CreateTable
CREATE TABLE "account_plans" (
    "account_id" TEXT NOT NULL,
    "plan" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_plans_pkey" PRIMARY KEY ("account_id")
);

-- CreateIndex
CREATE INDEX "boxes_account_recent_idx" ON "boxes"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "boxes_state_idx" ON "boxes"("state");

-- CreateIndex
CREATE UNIQUE INDEX "boxes_account_live_name_key" ON "boxes"("account_id", "live_name");

-- CreateIndex
CREATE INDEX "box_intervals_box_idx" ON "box_intervals"("box_id", "started_at");

-- CreateIndex
CREATE INDEX "box_intervals_account_idx" ON "box_intervals"("account_id", "started_at");

-- CreateIndex
CREATE INDEX "jobs_box_idx" ON "jobs"("box_id", "created_at");

-- CreateIndex
CREATE INDEX "jobs_status_idx" ON "jobs"("status");

-- CreateIndex
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys"("created_at");


-- At most one open interval per box (the current state): hand-written, Prisma cannot express a partial index.
CREATE UNIQUE INDEX "box_intervals_open_key" ON "box_intervals" ("box_id") WHERE "ended_at" IS NULL;
