-- CreateTable
CREATE TABLE "secrets" (
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "sealed" BYTEA NOT NULL,
    "key_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_by" TEXT NOT NULL,

    CONSTRAINT "secrets_pkey" PRIMARY KEY ("account_id","name")
);

-- AlterTable: a job the out-of-memory killer ended says so (the box's memory limit), not only SIGKILL.
ALTER TABLE "jobs" ADD COLUMN "oom_killed" BOOLEAN NOT NULL DEFAULT false;
