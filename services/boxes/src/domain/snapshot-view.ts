/** Snapshots as shown, and finding one of the caller's account: another account's snapshot id is simply not found. */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxesTx, SnapshotRow } from "../db/client.js";
import type { SnapshotHandle } from "../driver/box-driver.js";
import type { BoxesContext } from "./context.js";
import type { SnapshotView } from "./schemas/disk.js";

export type { SnapshotRow };

export function toSnapshotView(row: SnapshotRow): SnapshotView {
  return {
    id: row.id,
    name: row.name,
    boxId: row.boxId,
    state: row.state,
    stateReason: row.stateReason,
    metadata: row.metadata as Record<string, string>,
    template: row.template,
    templateVersion: row.templateVersion,
    dataGiB: row.dataGiB,
    sizeBytes: row.sizeBytes === null ? null : Number(row.sizeBytes),
    copyMethod: row.copyMethod,
    durationMs: row.durationMs,
    createdAt: row.createdAt.toISOString(),
    readyAt: row.readyAt?.toISOString() ?? null,
    deletedAt: row.deletedAt?.toISOString() ?? null,
    createdBy: row.createdBy,
    createdByAgent: row.createdByAgent,
  };
}

export const snapshotHandle = (row: Pick<SnapshotRow, "id" | "accountId">): SnapshotHandle => ({ id: row.id, accountId: row.accountId });

/** The caller's snapshot `id`, ready to start a box from (create_box snapshotId). */
export async function findReadySnapshot(ctx: BoxesContext, id: string): Promise<SnapshotRow> {
  const row = await ctx.db.snapshot.findFirst({ where: { id, accountId: ctx.accountId, state: { not: "deleted" } } });
  if (!row)
    throw new DomainError(ErrorCode.notFound, `No snapshot ${id} in this workspace; list_snapshots shows them.`, { snapshotId: id });
  if (row.state !== "ready") {
    const why = row.state === "creating" ? "is still being saved; retry when list_snapshots shows it ready" : `failed (${row.stateReason})`;
    throw new DomainError(ErrorCode.failedPrecondition, `Snapshot ${id} ${why}.`, { snapshotId: id, state: row.state });
  }
  // on another node the box's node reads a copy of it (snapshot-copy.ts); without that, this node cannot use it
  if (row.driver !== ctx.driver.kind || (row.node !== ctx.driver.node && !ctx.snapshotSource)) {
    throw new DomainError(
      ErrorCode.unavailable,
      `Snapshot ${id} is kept on another machine (${row.node}); this one cannot start a box from it.`,
      {
        snapshotId: id,
        node: row.node,
      },
    );
  }
  return row;
}

/**
 * Holds the snapshot a new box is recorded from (a shared row lock until the transaction ends) and checks it is
 * still ready: a delete (delete-snapshot.ts) waits for the box to be recorded, or the create sees it deleted.
 */
export async function holdReadySnapshot(tx: BoxesTx, id: string): Promise<void> {
  const [row] = await tx.$queryRaw<{ state: string }[]>`SELECT state::text AS state FROM snapshots WHERE id = ${id} FOR SHARE`;
  if (row?.state !== "ready")
    throw new DomainError(ErrorCode.notFound, `Snapshot ${id} was deleted meanwhile; list_snapshots shows the others.`, { snapshotId: id });
}
