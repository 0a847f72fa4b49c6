/**
 * Brings a new box up: the driver makes its disk and starts it (its runtime is stored at once, so a
 * restart can find it), then the optional `setup` runs as the job named "setup" while the box is still
 * `creating`, then the box is `running` and the optional `task` starts as a job. A box that cannot
 * start is `stopped` with the reason (its disk kept for delete_box or a retry with resume_box). `makeBox` makes the
 * disk and starts the box: a new empty disk by default, a copied one for fork_box and snapshots.
 */
import type { BoxRow } from "../db/client.js";
import type { BoxesContext } from "./context.js";
import { finishJob, refreshJob } from "./job-status.js";
import { boxHandle, boxSpec } from "./find-box.js";
import type { z } from "zod";
import type { setupInput, taskInput } from "./schemas/box.js";
import { jobSpec, launchJob } from "./start-job.js";
import { changeOwnState } from "./transitions.js";
import { operationOf } from "./box-view.js";
import type { BoxSpec } from "../driver/box-driver.js";

type Setup = z.infer<typeof setupInput>;
type Task = z.infer<typeof taskInput>;

export async function bringUp(
  ctx: BoxesContext,
  box: BoxRow,
  steps: { setup?: Setup | undefined; task?: Task | undefined; note?: string },
  signal?: AbortSignal,
  makeBox: (spec: BoxSpec) => Promise<unknown> = (spec) => ctx.driver.create(spec),
): Promise<void> {
  // Every change is conditional on still owning the create: a delete_box may take the box over at any step.
  const owned = operationOf(box)!;
  let running: BoxRow | null;
  let runtime: unknown;
  // With nothing to run first, the box is running as soon as it has started: one write, not two.
  const ready = !steps.setup && !steps.task;
  try {
    runtime = await makeBox(boxSpec(box));
    running = await changeOwnState(ctx, box.id, owned, {
      state: ready ? "running" : "creating",
      reason: ready ? (steps.note ?? null) : steps.setup ? "running setup" : null,
      runtime,
      endOperation: ready,
    });
  } catch (error) {
    ctx.log.warn({ err: error, boxId: box.id }, "box could not start");
    await changeOwnState(ctx, box.id, owned, { state: "stopped", reason: `could not start: ${(error as Error).message}`, runtime: null });
    return;
  }
  // Taken over by delete_box: what was made here goes (the delete removes the rest).
  if (!running) return void (await ctx.driver.destroy({ id: box.id, runtime }));
  if (ready) return;
  const notes: string[] = steps.note ? [steps.note] : [];
  const setupOk = steps.setup ? await runSetup(ctx, running, steps.setup, notes, signal) : true;
  if (signal?.aborted) return;
  if (steps.task && setupOk) await startTask(ctx, running, steps.task, notes);
  if (steps.task && !setupOk) notes.push("the task was not started");
  await changeOwnState(ctx, box.id, owned, { state: "running", reason: notes.length > 0 ? notes.join("; ") : null });
}

async function runSetup(ctx: BoxesContext, box: BoxRow, setup: Setup, notes: string[], signal?: AbortSignal): Promise<boolean> {
  const actor = { accountId: box.accountId, personId: box.createdBy, agentId: box.createdByAgent };
  try {
    const started = await launchJob(ctx, box, jobSpec({ ...setup, name: "setup" }), actor);
    await ctx.db.box.update({ where: { id: box.id }, data: { setupJobId: started.id } });
    const deadline = Date.now() + setup.timeoutSeconds * 1000;
    let job = started;
    while (job.status === "running" && Date.now() < deadline && !signal?.aborted) {
      await ctx.driver.jobChanged(boxHandle(box), job.id, Math.min(1_000, deadline - Date.now()), signal);
      job = await refreshJob(ctx, box, job);
    }
    if (signal?.aborted) return false;
    if (job.status === "running") {
      await ctx.driver.killJob(boxHandle(box), job.id, job.runtime);
      await finishJob(ctx, job.id, { state: "lost", reason: `setup did not finish within ${setup.timeoutSeconds} s` });
      notes.push(`setup did not finish within ${setup.timeoutSeconds} s (job ${job.id})`);
      return false;
    }
    if (job.status !== "succeeded")
      notes.push(`setup ${job.status}${job.exitCode !== null ? ` with exit code ${job.exitCode}` : ""} (job ${job.id})`);
    return job.status === "succeeded";
  } catch (error) {
    notes.push(`setup could not start: ${(error as Error).message}`);
    return false;
  }
}

async function startTask(ctx: BoxesContext, box: BoxRow, task: Task, notes: string[]): Promise<void> {
  const actor = { accountId: box.accountId, personId: box.createdBy, agentId: box.createdByAgent };
  try {
    const job = await launchJob(ctx, box, jobSpec({ ...task, name: task.name ?? "task" }), actor);
    await ctx.db.box.update({ where: { id: box.id }, data: { taskJobId: job.id } });
  } catch (error) {
    notes.push(`task could not start: ${(error as Error).message}`);
  }
}
