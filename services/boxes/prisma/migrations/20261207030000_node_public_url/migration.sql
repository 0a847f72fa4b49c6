-- AlterTable: each node records where clients reach its HTTP (BOXES_PUBLIC_URL) and what it admits (its HostCapacity):
-- any control-plane replica mints a box's transfer URLs with its node's URL and admits a box by its node's capacity
-- (domain/box-node.ts).
ALTER TABLE "box_nodes" ADD COLUMN "public_url" TEXT,
ADD COLUMN "capacity" JSONB;
