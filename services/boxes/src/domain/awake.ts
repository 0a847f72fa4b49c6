/**
 * exec, start_job and the file calls need a running box. A box asleep from idleness is woken first
 * (docs/boxes.md#model-and-states: woken by exec, start_job and the file tools); one paused with suspend_box, stopped, still being
 * created or busy with another operation answers failed_precondition.
 */
import type { BoxRow } from "../db/client.js";
import { operationOf } from "./box-view.js";
import type { BoxesContext, BoxesRuntime } from "./context.js";
import { findBox } from "./find-box.js";
import { wakeBox } from "./power.js";
import { preconditionError } from "./transitions.js";

const activityResolutionMs = 10_000;

/** `row`: the box as this call has just read it (exec's owner lookup), else it is read here. */
export async function awakeBox(ctx: BoxesContext, ref: string, action: string, row?: BoxRow): Promise<BoxRow> {
  let box = row ?? (await findBox(ctx, ref));
  if (box.state === "sleeping" && !operationOf(box)) box = await wakeBox(ctx, box);
  if (box.state !== "running" || operationOf(box)) throw preconditionError(box, action);
  // Activity keeps a box from idling to sleep (the auto-suspend policy, reaper.ts); recorded at most every 10 s,
  // before the call acts, so that the reaper's next round sees it.
  if (activityIsStale(box)) {
    const now = new Date();
    await recordActivity(ctx, box.id, now);
    box = { ...box, lastActivityAt: now };
  }
  return box;
}

/** Whether the box's recorded activity is older than the resolution (then a call writes it again). */
export function activityIsStale(box: Pick<BoxRow, "lastActivityAt">): boolean {
  return Date.now() - box.lastActivityAt.getTime() > activityResolutionMs;
}

/** Moves the box's last activity to now, if it is still running; false when it is not (or is gone). */
export async function stillRunning(rt: BoxesRuntime, boxId: string): Promise<boolean> {
  const moved = await rt.db.box
    .updateMany({ where: { id: boxId, state: "running" }, data: { lastActivityAt: new Date() } })
    .catch(() => null);
  return moved === null || moved.count > 0;
}

/** Moves the box's last activity to now (also while a long exec runs, and when it ends). */
export async function recordActivity(rt: BoxesRuntime, boxId: string, at = new Date()): Promise<void> {
  await rt.db.box.update({ where: { id: boxId }, data: { lastActivityAt: at } }).catch(() => {});
}
