/**
 * A box made from a snapshot on a node that cannot hold it. The box goes where the snapshot is while that node has
 * room (its disk is a local copy, a reflink where the disk store allows). When that node is full or drained, the box
 * goes where placement puts it (placement.ts `placeNear`), and that node first reads the snapshot's files from the
 * snapshot's node — node to node, at a URL the control plane signs for this snapshot and that node
 * (transfers/node-transfer.ts) — makes the box from them and removes them: the snapshot itself stays on its node.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxSpec, DownloadStream, SnapshotHandle } from "../driver/box-driver.js";
import type { BoxesContext, BoxesRuntime } from "./context.js";
import { snapshotHandle } from "./snapshot-view.js";
import { servedHere, type NodeTransferRequest } from "./transfers/node-transfer.js";

/** Starts the box from the snapshot: from its own node's files, or from a copy read from `ctx.snapshotSource`. */
export async function createFromSnapshot(ctx: BoxesContext, spec: BoxSpec, snapshot: SnapshotHandle): Promise<unknown> {
  if (!ctx.snapshotSource) return ctx.driver.createFromCopy(spec, snapshot);
  // a copy of its own per box, so that two boxes made from one snapshot on one node at once never share it
  const copy: SnapshotHandle = { id: `${snapshot.id}.for.${spec.id}`, accountId: snapshot.accountId };
  const { bytes } = await ctx.driver.importSnapshot(copy, ctx.snapshotSource);
  ctx.log.info({ boxId: spec.id, snapshotId: snapshot.id, node: ctx.driver.node, bytes }, "snapshot copied to the box's node");
  try {
    return await ctx.driver.createFromCopy(spec, copy);
  } finally {
    await ctx.driver
      .deleteSnapshot(copy)
      .catch((error: unknown) =>
        ctx.log.warn({ err: error, snapshotId: snapshot.id, node: ctx.driver.node }, "a snapshot's copy stays on the box's node"),
      );
  }
}

/** The snapshot's node's side (its transfer route): signed for this snapshot and destination, on its node, ready. */
export async function openSnapshotExport(rt: BoxesRuntime, request: NodeTransferRequest): Promise<DownloadStream> {
  const found = servedHere(rt, "snapshot", request, await rt.db.snapshot.findUnique({ where: { id: request.id } }), "Snapshot");
  if (found.state !== "ready")
    throw new DomainError(ErrorCode.failedPrecondition, `Snapshot ${found.id} is ${found.state}.`, { snapshotId: found.id });
  return rt.driver.exportSnapshot(snapshotHandle(found));
}
