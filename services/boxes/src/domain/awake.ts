/**
 * exec, start_job and the file calls need a running box. A box asleep from idleness is woken first
 * (docs/boxes.md#model-and-states: woken by exec, start_job and the file tools); one paused with suspend_box, stopped, still being
 * created or busy with another operation answers failed_precondition.
 */
import type { BoxRow } from "../db/client.js";
import { operationOf } from "./box-view.js";
import type { BoxesContext } from "./context.js";
import { findBox } from "./find-box.js";
import { wakeBox } from "./power.js";
import { preconditionError } from "./transitions.js";

const activityResolutionMs = 10_000;

export async function awakeBox(ctx: BoxesContext, ref: string, action: string): Promise<BoxRow> {
  let box = await findBox(ctx, ref);
  if (box.state === "sleeping" && !operationOf(box)) box = await wakeBox(ctx, box);
  if (box.state !== "running" || operationOf(box)) throw preconditionError(box, action);
  // Activity keeps a box from idling to sleep (the auto-suspend policy); recorded at most every 10 s.
  const now = Date.now();
  if (now - box.lastActivityAt.getTime() > activityResolutionMs) {
    void ctx.db.box.update({ where: { id: box.id }, data: { lastActivityAt: new Date(now) } }).catch(() => {});
  }
  return box;
}
