CREATE TYPE "WorkspaceRole" AS ENUM ('viewer', 'editor', 'admin', 'owner');

-- CreateEnum
CREATE TYPE "DraftState" AS ENUM ('draft', 'submitting', 'submitted');

-- CreateTable
CREATE TABLE "workspaces" (
    "id" UUID NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "workspaces_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "members" (
    "workspace_id" UUID NOT NULL,
    "person_id" TEXT NOT NULL,
    "role" "WorkspaceRole" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "members_pkey" PRIMARY KEY ("workspace_id","person_id")
);

-- CreateTable
CREATE TABLE "drafts" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "revision" INTEGER NOT NULL,
    "state" "DraftState" NOT NULL,
    "caption" TEXT NOT NULL,
    "account_ids" TEXT[],
    "asset_count" INTEGER NOT NULL,
    "created_by" TEXT,
    "updated_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "submitted_at" TIMESTAMPTZ(3),
    "submit_error" TEXT,

    CONSTRAINT "drafts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "assets" (
    "id" UUID NOT NULL,
    "draft_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "filename" TEXT NOT NULL,
    "mime" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "assets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "write_requests" (
    "workspace_id" UUID NOT NULL,
    "request_id" UUID NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "write_requests_pkey" PRIMARY KEY ("workspace_id","request_id")
);

-- CreateTable
CREATE TABLE "submission_jobs" (
    "id" UUID NOT NULL,
    "draft_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "revision" INTEGER NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lease_owner" TEXT,
    "lease_expires_at" TIMESTAMPTZ(3),
    "available_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),
    "outcome" TEXT,
    "last_error" TEXT,

    CONSTRAINT "submission_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "events" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "draft_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "published_at" TIMESTAMPTZ(3),

    CONSTRAINT "events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "workspaces_account_idx" ON "workspaces"("account_id");

-- CreateIndex
CREATE INDEX "members_person_idx" ON "members"("person_id");

-- CreateIndex
CREATE INDEX "drafts_workspace_recent_idx" ON "drafts"("workspace_id", "updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "assets_sha256_idx" ON "assets"("sha256");

-- CreateIndex
CREATE UNIQUE INDEX "assets_draft_position_key" ON "assets"("draft_id", "position");

-- CreateIndex
CREATE INDEX "write_requests_created_at_idx" ON "write_requests"("created_at");

-- CreateIndex
CREATE INDEX "submission_jobs_ready_idx" ON "submission_jobs"("finished_at", "available_at");

-- CreateIndex
CREATE INDEX "submission_jobs_draft_idx" ON "submission_jobs"("draft_id");

-- CreateIndex
CREATE INDEX "events_unpublished_idx" ON "events"("published_at", "created_at");

-- AddForeignKey
ALTER TABLE "members" ADD CONSTRAINT "members_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "assets" ADD CONSTRAINT "assets_draft_id_fkey" FOREIGN KEY ("draft_id") REFERENCES "drafts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "submission_jobs" ADD CONSTRAINT "submission_jobs_draft_id_fkey" FOREIGN KEY ("draft_id") REFERENCES "drafts"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Hand-written: the seed's limits hold in the database too (defence in depth; Prisma does not model CHECKs).
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_revision_positive" CHECK ("revision" > 0);
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_asset_count_range" CHECK ("asset_count" BETWEEN 0 AND 20);
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_account_count_range" CHECK (cardinality("account_ids") <= 50);
