/**
 * delete_box: irreversible, so `confirm: true` is required. The box goes to `deleting` at once (visible
 * on get_box), the driver kills its processes and removes its disk, then the box is `deleted`; its name
 * is free again, its history (intervals, jobs) stays. Deleting a deleted box answers it as it is.
 */
import { invalidArgument } from "@bancada/contracts";
import { toBoxView } from "./box-view.js";
import type { BoxesContext } from "./context.js";
import { endRunningJobs } from "./end-jobs.js";
import { boxHandle, findBox } from "./find-box.js";
import { runOperation } from "./power.js";
import type { BoxView } from "./schemas/box.js";
import { boxStates } from "./schemas/box.js";
import { beginOperation, changeState } from "./transitions.js";

export interface DeleteBoxInput {
  boxId: string;
  confirm?: boolean | undefined;
  wait: boolean;
}

export async function deleteBox(ctx: BoxesContext, input: DeleteBoxInput, signal?: AbortSignal): Promise<BoxView> {
  if (input.confirm !== true) {
    throw invalidArgument([{ path: "confirm", message: "must be true: delete_box removes the box and all its files, with no way back" }]);
  }
  const box = await findBox(ctx, input.boxId);
  if (box.state === "deleted") return toBoxView(box);
  const claimed = await beginOperation(
    ctx,
    box,
    "delete",
    boxStates.filter((state) => state !== "deleted"),
  );
  const deleting = await changeState(ctx, box.id, { state: "deleting", reason: `deleted by ${ctx.personId}`, endOperation: false });
  return runOperation(ctx, deleting, "delete", input.wait, signal, async () => {
    await ctx.driver.destroy(boxHandle(claimed));
    await endRunningJobs(ctx, claimed, "the box was deleted");
    return { state: "deleted", reason: `deleted by ${ctx.personId}`, runtime: null };
  });
}
