-- AlterTable: each node registers what it can hold and heartbeats (domain/placement.ts); create_box places boxes by it.
ALTER TABLE "box_nodes" ADD COLUMN "driver" TEXT NOT NULL DEFAULT 'local',
ADD COLUMN "cores" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "vcpus" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "mem_mib" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "share_percent" INTEGER NOT NULL DEFAULT 100,
ADD COLUMN "disk_room_gib" INTEGER,
ADD COLUMN "labels" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN "draining" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "heartbeat_at" TIMESTAMPTZ(3);
