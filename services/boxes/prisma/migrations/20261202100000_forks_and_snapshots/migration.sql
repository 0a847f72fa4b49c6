-- fork_box copies remember their source box; save_snapshot keeps saved disks, one account's each.
-- CreateEnum
CREATE TYPE "SnapshotState" AS ENUM ('creating', 'ready', 'failed');

-- AlterTable
ALTER TABLE "boxes" ADD COLUMN     "forked_from" TEXT;

-- CreateTable
CREATE TABLE "snapshots" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "box_id" TEXT NOT NULL,
    "name" TEXT,
    "metadata" JSONB NOT NULL,
    "state" "SnapshotState" NOT NULL,
    "state_reason" TEXT,
    "template" TEXT NOT NULL,
    "template_version" TEXT NOT NULL,
    "data_gib" INTEGER NOT NULL,
    "size_bytes" BIGINT,
    "copy_method" TEXT,
    "duration_ms" INTEGER,
    "driver" TEXT NOT NULL,
    "node" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "ready_at" TIMESTAMPTZ(3),
    "created_by" TEXT NOT NULL,
    "created_by_agent" TEXT NOT NULL,

    CONSTRAINT "snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "snapshots_account_recent_idx" ON "snapshots"("account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "snapshots_account_box_idx" ON "snapshots"("account_id", "box_id", "created_at" DESC);

