/**
 * save_snapshot: the box's disk saved as a snapshot of the caller's account (create_box snapshotId starts a
 * box from it). One transaction checks the account's disk quota, claims the `snapshot` operation on the box and
 * records the snapshot as `creating`; then the driver copies the disk consistently (the box held still, as for
 * fork_box) and the snapshot is `ready` (or `failed`, with the reason). The call waits up to 60 s by default.
 */
import type { BoxRow } from "../db/client.js";
import type { Prisma } from "../db/generated/client.js";
import { operationOf } from "./box-view.js";
import { admit } from "./capacity.js";
import type { BoxesContext } from "./context.js";
import { boxHandle, findBox } from "./find-box.js";
import { newSnapshotId } from "./ids.js";
import { limits } from "./limits.js";
import { planOf } from "./plans.js";
import { settleWithin } from "./power.js";
import type { SaveSnapshotInput, SnapshotView } from "./schemas/disk.js";
import { snapshotHandle, toSnapshotView, type SnapshotRow } from "./snapshot-view.js";
import { claimOperation, newOperation, preconditionError, releaseOperation } from "./transitions.js";

/** A box may be saved in any state that has a disk and no operation in progress. */
const savableStates = ["running", "sleeping", "suspended", "stopped"] as const;

export async function saveSnapshot(ctx: BoxesContext, input: SaveSnapshotInput, signal?: AbortSignal): Promise<SnapshotView> {
  const plan = await planOf(ctx);
  const box = await findBox(ctx, input.boxId);
  const { claimed, snapshot } = await ctx.db.$transaction(async (tx) => {
    await admit(tx, ctx, plan, { vcpus: 0, memMiB: 0, boxes: 0, dataGiB: box.dataGiB }, { host: false });
    const operation = newOperation(ctx, "snapshot");
    if (!(await claimOperation(tx, ctx, box.id, operation, [...savableStates])))
      throw preconditionError(await tx.box.findUniqueOrThrow({ where: { id: box.id } }), "save_snapshot");
    const now = new Date();
    const snapshot = await tx.snapshot.create({
      data: {
        id: newSnapshotId(),
        accountId: ctx.accountId,
        boxId: box.id,
        name: input.name ?? null,
        metadata: input.metadata,
        state: "creating",
        template: box.template,
        templateVersion: box.templateVersion,
        dataGiB: box.dataGiB,
        driver: ctx.driver.kind,
        node: ctx.driver.node,
        createdAt: now,
        createdBy: ctx.personId,
        createdByAgent: ctx.agentId,
      },
    });
    return { claimed: await tx.box.findUniqueOrThrow({ where: { id: box.id } }), snapshot };
  });
  const done = ctx.operations.run(box.id, `snapshot ${box.id}`, (cancel) => takeSnapshot(ctx, claimed, snapshot, cancel));
  if (input.wait) await settleWithin(done, limits.snapshotWaitMs, signal);
  return toSnapshotView(await ctx.db.snapshot.findUniqueOrThrow({ where: { id: snapshot.id } }));
}

/**
 * The snapshot's outcome and the end of the box's `snapshot` operation are written in one transaction: a caller who
 * sees the snapshot `ready` (or `failed`) can act on the box at once, and is never told it is still busy.
 */
async function takeSnapshot(ctx: BoxesContext, box: BoxRow, snapshot: SnapshotRow, signal: AbortSignal): Promise<void> {
  const owned = operationOf(box)!;
  let outcome: Prisma.SnapshotUpdateInput;
  try {
    const copy = await ctx.driver.copyDisk(boxHandle(box), [{ kind: "snapshot", snapshot: snapshotHandle(snapshot) }], signal);
    outcome = { state: "ready", sizeBytes: copy.bytes, copyMethod: copy.method, durationMs: copy.durationMs, readyAt: new Date() };
    ctx.log.info({ boxId: box.id, snapshotId: snapshot.id, ...copy }, "box disk saved as a snapshot");
  } catch (error) {
    ctx.log.warn({ err: error, boxId: box.id, snapshotId: snapshot.id }, "snapshot failed");
    await ctx.driver.deleteSnapshot(snapshotHandle(snapshot)).catch(() => {});
    const reason = signal.aborted
      ? "the box was deleted while its disk was being saved"
      : `the disk could not be saved: ${(error as Error).message}`;
    outcome = { state: "failed", stateReason: reason };
  }
  try {
    await ctx.db.$transaction(async (tx) => {
      await tx.snapshot.update({ where: { id: snapshot.id }, data: outcome });
      await releaseOperation(tx, box.id, owned);
    });
  } catch (error) {
    // The box must not stay busy because its snapshot's row could not be written.
    await releaseOperation(ctx.db, box.id, owned);
    throw error;
  }
}
