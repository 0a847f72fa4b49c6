-- Each box runs as its own unprivileged host user (root inside the box is that uid on the host). The number
-- comes from a sequence, so a uid is never handed to a second box, not even after the first is deleted:
-- files a deleted box left anywhere can never belong to a new one. Boxes made before this have none.
CREATE SEQUENCE "boxes_host_uid_seq" AS INTEGER MINVALUE 1 START WITH 1;

-- AlterTable
ALTER TABLE "boxes" ADD COLUMN "host_uid" INTEGER;

-- CreateIndex
CREATE UNIQUE INDEX "boxes_host_uid_key" ON "boxes"("host_uid");
