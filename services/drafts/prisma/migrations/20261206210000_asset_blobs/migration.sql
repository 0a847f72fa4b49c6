-- CreateTable
CREATE TABLE "blobs" (
    "id" UUID NOT NULL,
    "sha256" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "chunk_count" INTEGER NOT NULL,
    "stored_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "blobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "blob_chunks" (
    "blob_id" UUID NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "blob_chunks_pkey" PRIMARY KEY ("blob_id","ordinal")
);

-- CreateIndex
CREATE UNIQUE INDEX "blobs_sha256_key" ON "blobs"("sha256");


-- Media does not compress: keep the chunks out of line without trying (STORAGE EXTERNAL), which saves the CPU of
-- a failed compression on every write. Prisma does not model a column's storage, so this is hand-written.
ALTER TABLE "blob_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;
