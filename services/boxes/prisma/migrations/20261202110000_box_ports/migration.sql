-- CreateTable
CREATE TABLE "box_ports" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "box_id" TEXT NOT NULL,
    "port" INTEGER NOT NULL,
    "protocol" TEXT NOT NULL,
    "visibility" TEXT NOT NULL,
    "token_hash" TEXT,
    "host_port" INTEGER NOT NULL,
    "node" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "box_ports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "box_ports_account_idx" ON "box_ports"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "box_ports_box_port_key" ON "box_ports"("box_id", "port");

-- CreateIndex
CREATE UNIQUE INDEX "box_ports_node_host_port_key" ON "box_ports"("node", "host_port");

