/**
 * delete_box: irreversible, so `confirm: true` is required. The box goes to `deleting` at once (visible
 * on get_box), the driver kills its processes and removes its disk, then the box is `deleted`; its name
 * is free again, its history (intervals, jobs) stays. Deleting a deleted box answers it as it is.
 *
 * In any state: a box being created, forked or saved as a snapshot is taken over — the delete replaces that
 * operation in one conditional UPDATE, cancels its work (this process's at once; another process's notices, as
 * each of its steps is conditional on still owning the box) and waits for it to clean up before removing the box.
 * A short transition in progress (suspend, resume, start) is waited for; a delete in progress is answered as it is.
 */
import { invalidArgument } from "@bancada/contracts";
import type { BoxRow } from "../db/client.js";
import { operationOf, type OperationKind } from "./box-view.js";
import { boxAnswer } from "./box-answer.js";
import type { BoxesContext } from "./context.js";
import { endRunningJobs } from "./end-jobs.js";
import { boxHandle, findBox } from "./find-box.js";
import { runOperation } from "./power.js";
import type { BoxView } from "./schemas/box.js";
import { untilSettled } from "./create-box.js";
import { changeState, newOperation, preconditionError } from "./transitions.js";

export interface DeleteBoxInput {
  boxId: string;
  confirm?: boolean | undefined;
  wait: boolean;
}

/** Operations a delete takes over and cancels; the others end within seconds and are waited for. */
const cancellable: OperationKind[] = ["create", "fork", "snapshot"];
const transitionWaitMs = 60_000;
const cancelWaitMs = 30_000;

export async function deleteBox(ctx: BoxesContext, input: DeleteBoxInput, signal?: AbortSignal): Promise<BoxView> {
  if (input.confirm !== true) {
    throw invalidArgument([{ path: "confirm", message: "must be true: delete_box removes the box and all its files, with no way back" }]);
  }
  const box = await findBox(ctx, input.boxId);
  if (box.state === "deleted") return boxAnswer(ctx, box);
  const claimed = await claimDelete(ctx, box);
  if (!claimed.fresh) {
    const current = input.wait ? await untilSettled(ctx, box.id, transitionWaitMs, signal) : claimed.row;
    return boxAnswer(ctx, current);
  }
  const deleting = await changeState(ctx, box.id, { state: "deleting", reason: `deleted by ${ctx.personId}`, endOperation: false });
  return runOperation(ctx, deleting, "delete", input.wait, signal, async () => {
    // The work it took over stops and cleans up first; then what it may have stored (a runtime) is read again.
    // the operation it took over, as read before the claim (its process is asked to cancel it)
    const taken = operationOf(box);
    await ctx.operations.cancel(box.id, cancelWaitMs, taken && taken.instance !== ctx.instance ? taken.instance : undefined);
    const current = await ctx.db.box.findUniqueOrThrow({ where: { id: box.id } });
    await ctx.driver.destroy(boxHandle(current));
    await endRunningJobs(ctx, current, "the box was deleted");
    return { state: "deleted", reason: `deleted by ${ctx.personId}`, runtime: null };
  });
}

/**
 * Claims the delete: over no operation or a cancellable one (one conditional UPDATE, so only one delete wins).
 * `fresh: false` when another delete already runs or the box is deleted meanwhile.
 */
async function claimDelete(ctx: BoxesContext, box: BoxRow): Promise<{ row: BoxRow; fresh: boolean }> {
  const until = Date.now() + transitionWaitMs;
  for (;;) {
    const operation = newOperation(ctx, "delete");
    const claimed = await ctx.db.$executeRaw`
      UPDATE boxes SET operation = ${JSON.stringify(operation)}::jsonb, version = version + 1, updated_at = now()
       WHERE id = ${box.id} AND account_id = ${ctx.accountId} AND state <> 'deleted'
         AND (operation IS NULL OR operation->>'kind' = ANY(${cancellable}::text[]))`;
    const row = await ctx.db.box.findUniqueOrThrow({ where: { id: box.id } });
    if (claimed === 1) return { row, fresh: true };
    const current = operationOf(row);
    if (row.state === "deleted" || current?.kind === "delete") return { row, fresh: false };
    if (Date.now() >= until) throw preconditionError(row, "delete_box");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
