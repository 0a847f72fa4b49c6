-- AlterEnum: a snapshot deleted over REST (DELETE /v1/snapshots/:id): its files are gone, its row stays (billing, history).
ALTER TYPE "SnapshotState" ADD VALUE 'deleted';

-- AlterTable: when it was deleted (its storage is billed until then).
ALTER TABLE "snapshots" ADD COLUMN "deleted_at" TIMESTAMPTZ(3);
