-- AlterTable: each node records the host ports its published ports may take (its BOXES_PORT_RANGE): a control-plane
-- replica allocates a box's port in the range of the box's node, where that node listens (domain/box-node.ts).
ALTER TABLE "box_nodes" ADD COLUMN "port_first" INTEGER,
ADD COLUMN "port_last" INTEGER;
