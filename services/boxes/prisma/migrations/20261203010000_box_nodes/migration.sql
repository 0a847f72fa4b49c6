-- CreateTable: where each node's SSH endpoint is, written by its replicas at start (sshCommand of a box on another node).
CREATE TABLE "box_nodes" (
    "node" TEXT NOT NULL,
    "ssh_host" TEXT NOT NULL,
    "ssh_port" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "box_nodes_pkey" PRIMARY KEY ("node")
);
