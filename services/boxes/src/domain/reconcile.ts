/**
 * Keeps Postgres and the machine in agreement. At start (recoverBoxes): every box of this node is
 * looked at — a running box keeps running; one whose processes are gone is marked `stopped` with the
 * reason; an operation a previous service process left unfinished is settled from what the driver
 * sees (or finished, for a delete); jobs that ended meanwhile get their exit status. Nothing is
 * silently lost. Then, periodically (watchBoxes), boxes that died and jobs that ended are recorded.
 */
import type { BoxRow } from "../db/client.js";
import { Prisma } from "../db/generated/client.js";
import { boxHandle } from "./find-box.js";
import { frozenStateOf, operationOf } from "./box-view.js";
import type { BoxesRuntime } from "./context.js";
import { goneReason } from "./driver-errors.js";
import { endRunningJobs } from "./end-jobs.js";
import { refreshJob } from "./job-status.js";
import { changeState, releaseOperation, type StateChange } from "./transitions.js";

export async function recoverBoxes(rt: BoxesRuntime): Promise<void> {
  const boxes = await rt.db.box.findMany({ where: { driver: rt.driver.kind, node: rt.driver.node, state: { not: "deleted" } } });
  for (const box of boxes) {
    try {
      await recoverBox(rt, box);
    } catch (error) {
      rt.log.error({ err: error, boxId: box.id }, "could not recover a box after the restart");
    }
  }
  await failInterruptedSnapshots(rt);
  await refreshJobs(rt);
}

async function recoverBox(rt: BoxesRuntime, box: BoxRow): Promise<void> {
  const operation = operationOf(box);
  if (operation?.instance === rt.instance) return;
  if (operation?.kind === "delete" || box.state === "deleting") {
    await rt.driver.destroy(boxHandle(box));
    await endRunningJobs(rt, box, "the box was deleted");
    await changeState(rt, box.id, { state: "deleted", reason: box.stateReason ?? "deleted", runtime: null });
    return;
  }
  if (operation?.kind === "fork" || operation?.kind === "snapshot") return releaseCopy(rt, box);
  if (box.state === "stopped" && !operation) return;
  const liveness = await rt.driver.inspect(boxHandle(box));
  const interrupted = operation ? `${operation.kind} was interrupted by a restart of the service` : null;
  let change: StateChange;
  if (liveness === "gone") {
    await endRunningJobs(rt, box, "the box's processes were gone after a restart of the service");
    change = { state: "stopped", reason: interrupted ?? `${goneReason} (found after a restart of the service)`, runtime: null };
  } else if (operation) {
    change = { state: liveness === "frozen" ? frozenStateOf(box) : "running", reason: interrupted };
  } else {
    // No operation: Postgres is right about the state; bring the processes back in line with it.
    const wantsFrozen = box.state === "suspended" || box.state === "sleeping";
    if (wantsFrozen && liveness === "running") await rt.driver.suspend(boxHandle(box));
    if (!wantsFrozen && liveness === "frozen") await rt.driver.resume(boxHandle(box));
    if (box.state !== "creating") return;
    change = { state: "running", reason: "creation finished after a restart of the service" };
  }
  await changeState(rt, box.id, change);
  rt.log.info({ boxId: box.id, state: change.state, reason: change.reason }, "box recovered after restart");
}

/**
 * A fork or snapshot interrupted by the restart: its disk is let go, its processes put back as the box's state says
 * (the copy froze them), the operation ended. Copies it had not started are settled like any box being created;
 * snapshots still being saved are failed by failInterruptedSnapshots.
 */
async function releaseCopy(rt: BoxesRuntime, box: BoxRow): Promise<void> {
  await rt.driver.releaseDisk(boxHandle(box));
  const liveness = box.state === "stopped" ? "gone" : await rt.driver.inspect(boxHandle(box));
  const wantsFrozen = box.state === "suspended" || box.state === "sleeping";
  if (!wantsFrozen && liveness === "frozen") await rt.driver.resume(boxHandle(box));
  await releaseOperation(rt.db, box.id, operationOf(box)!);
  rt.log.info({ boxId: box.id, operation: operationOf(box)!.kind }, "interrupted disk copy released after restart");
}

/** Snapshots this node was saving when the service stopped: failed, with the reason, their files removed. */
async function failInterruptedSnapshots(rt: BoxesRuntime): Promise<void> {
  const snapshots = await rt.db.snapshot.findMany({ where: { driver: rt.driver.kind, node: rt.driver.node, state: "creating" } });
  for (const snapshot of snapshots) {
    await rt.driver.deleteSnapshot({ id: snapshot.id, accountId: snapshot.accountId }).catch(() => {});
    await rt.db.snapshot.update({
      where: { id: snapshot.id },
      data: { state: "failed", stateReason: "saving was interrupted by a restart of the service; save_snapshot again" },
    });
  }
}

/** One round of watching: boxes whose processes died are marked stopped; ended jobs are recorded. */
export async function watchBoxes(rt: BoxesRuntime): Promise<void> {
  const boxes = await rt.db.box.findMany({
    where: {
      driver: rt.driver.kind,
      node: rt.driver.node,
      state: { in: ["running", "suspended", "sleeping"] },
      operation: { equals: Prisma.DbNull },
    },
  });
  for (const box of boxes) {
    // A box whose processes cannot be looked at (the service out of descriptors, say) is unknown, never "gone".
    const liveness = await rt.driver.inspect(boxHandle(box)).catch((error: unknown) => {
      rt.log.warn({ err: error, boxId: box.id }, "could not tell whether a box's processes run; its state is kept");
      return null;
    });
    if (liveness === null) continue;
    if (liveness === "gone") {
      // Re-read under the operation check: a delete or stop may have started meanwhile.
      const current = await rt.db.box.findUnique({ where: { id: box.id } });
      if (!current || current.operation || current.state !== box.state) continue;
      await endRunningJobs(rt, box, "the box's processes ended while the job ran");
      await changeState(rt, box.id, { state: "stopped", reason: goneReason, runtime: null });
      rt.log.warn({ boxId: box.id }, "box found stopped");
    } else {
      await rt.driver.sweep(boxHandle(box));
    }
  }
  await refreshJobs(rt);
}

async function refreshJobs(rt: BoxesRuntime): Promise<void> {
  const jobs = await rt.db.job.findMany({ where: { status: "running" }, take: 500, orderBy: { createdAt: "asc" } });
  for (const job of jobs) {
    const box = await rt.db.box.findUnique({ where: { id: job.boxId } });
    if (box && box.driver === rt.driver.kind && box.node === rt.driver.node) await refreshJob(rt, box, job);
  }
}
