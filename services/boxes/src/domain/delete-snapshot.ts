/**
 * Deleting a snapshot (REST `DELETE /v1/snapshots/:id`; the product has no tool for it): its files are removed and
 * its storage stops being billed; the row stays as `deleted` (usage until then, history). Only the caller's account's
 * snapshots are found. A snapshot still being saved, or one a box is being created from, is refused: the row is
 * locked while that is checked, and create_box locks it too while it records its box (create-box.ts), so a delete and
 * a create from the same snapshot never both go through.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxesContext } from "./context.js";
import { snapshotHandle, toSnapshotView } from "./snapshot-view.js";
import type { SnapshotView } from "./schemas/disk.js";

export async function deleteSnapshot(ctx: BoxesContext, id: string): Promise<SnapshotView> {
  const { row, fresh } = await ctx.db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM snapshots WHERE id = ${id} AND account_id = ${ctx.accountId} FOR UPDATE`;
    if (locked.length === 0)
      throw new DomainError(ErrorCode.notFound, `No snapshot ${id} in this workspace; list_snapshots shows them.`, { snapshotId: id });
    const snapshot = await tx.snapshot.findUniqueOrThrow({ where: { id } });
    if (snapshot.state === "deleted") return { row: snapshot, fresh: false };
    if (snapshot.state === "creating")
      throw new DomainError(ErrorCode.failedPrecondition, `Snapshot ${id} is still being saved; delete it once it is ready.`, {
        snapshotId: id,
        state: snapshot.state,
      });
    if (snapshot.driver !== ctx.driver.kind || snapshot.node !== ctx.driver.node)
      throw new DomainError(ErrorCode.unavailable, `Snapshot ${id} is kept on another machine (${snapshot.node}); delete it there.`, {
        snapshotId: id,
        node: snapshot.node,
      });
    const user = await tx.box.findFirst({ where: { accountId: ctx.accountId, snapshotId: id, state: "creating" } });
    if (user)
      throw new DomainError(
        ErrorCode.failedPrecondition,
        `Box ${user.name} (${user.id}) is being created from snapshot ${id}; delete the snapshot once that box is running.`,
        { snapshotId: id, boxId: user.id },
      );
    const deleted = await tx.snapshot.update({
      where: { id },
      data: { state: "deleted", stateReason: `deleted by ${ctx.personId}`, deletedAt: ctx.now() },
    });
    return { row: deleted, fresh: true };
  });
  if (fresh) {
    await ctx.driver.deleteSnapshot(snapshotHandle(row));
    ctx.log.info({ snapshotId: id, boxId: row.boxId }, "snapshot deleted");
  }
  return toSnapshotView(row);
}
