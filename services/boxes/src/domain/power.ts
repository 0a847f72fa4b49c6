/**
 * suspend_box, resume_box and waking a sleeping box. Each runs as a claimed operation (transitions.ts):
 * the driver acts in the background, the state changes when it is done, and `wait` decides whether the
 * call waits for that. A box found gone on the way is marked stopped with the reason.
 */
import { DomainError } from "@bancada/contracts";
import type { BoxesTx, BoxRow } from "../db/client.js";
import { DriverError } from "../driver/driver-error.js";
import { frozenStateOf, type OperationKind } from "./box-view.js";
import { boxAnswer } from "./box-answer.js";
import type { BoxesContext, BoxesRuntime } from "./context.js";
import { goneReason } from "./driver-errors.js";
import { boxHandle, boxSpec, findBox } from "./find-box.js";
import { endRunningJobs } from "./end-jobs.js";
import type { BoxState, BoxView, PowerInput } from "./schemas/box.js";
import { admit } from "./capacity.js";
import { freezeBox } from "./suspensions.js";
import { planOf } from "./plans.js";
import { beginOperation, changeState, type StateChange } from "./transitions.js";

const powerWaitMs = 60_000;

export async function suspendBox(ctx: BoxesContext, input: PowerInput, signal?: AbortSignal): Promise<BoxView> {
  const box = await findBox(ctx, input.boxId);
  if (box.state === "suspended" && !box.operation) return boxAnswer(ctx, box);
  const claimed = await beginOperation(ctx, box, "suspend", ["running", "sleeping"]);
  // A sleeping box is frozen already: only its state (and how it may wake) changes.
  return runOperation(ctx, claimed, "suspend", input.wait, signal, async () => {
    const reason = "paused with suspend_box; only resume_box wakes it";
    if (claimed.state === "running") await freezeBox(ctx, claimed, { state: "suspended", reason });
    return { state: "suspended", reason };
  });
}

export async function resumeBox(ctx: BoxesContext, input: PowerInput, signal?: AbortSignal): Promise<BoxView> {
  const box = await findBox(ctx, input.boxId);
  if (box.state === "running" && !box.operation) {
    // its node vouches for it: a node gone answers unavailable naming it, as every call acting on the box does
    await ctx.driver.inspect(boxHandle(box)).catch((error: unknown) => {
      if (error instanceof DomainError) throw error;
    });
    return boxAnswer(ctx, box);
  }
  if (box.state === "stopped") {
    const claimed = await beginOperation(ctx, box, "start", ["stopped"], await admission(ctx, box, true));
    return runOperation(ctx, claimed, "start", input.wait, signal, () => startFresh(ctx, claimed));
  }
  // A suspended box holds its memory on this machine already: only the account's limits are checked.
  const claimed = await beginOperation(ctx, box, "resume", ["suspended", "sleeping"], await admission(ctx, box, false));
  return runOperation(ctx, claimed, "resume", input.wait, signal, async () => {
    await ctx.driver.resume(boxHandle(claimed));
    return { state: "running", reason: null };
  });
}

/** Wakes a box that fell asleep from idleness, for the call that needs it; waits for a wake already under way. */
export async function wakeBox(ctx: BoxesContext, box: BoxRow): Promise<BoxRow> {
  try {
    const claimed = await beginOperation(ctx, box, "resume", ["sleeping"], await admission(ctx, box, false));
    await runOperation(ctx, claimed, "resume", true, undefined, async () => {
      await ctx.driver.resume(boxHandle(claimed));
      return { state: "running", reason: null };
    });
  } catch (error) {
    const until = Date.now() + powerWaitMs;
    let current = await ctx.db.box.findUniqueOrThrow({ where: { id: box.id } });
    while (current.operation && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      current = await ctx.db.box.findUniqueOrThrow({ where: { id: box.id } });
    }
    if (current.state !== "running") throw error;
  }
  return ctx.db.box.findUniqueOrThrow({ where: { id: box.id } });
}

/** The capacity check of a box about to run again (capacity.ts). */
async function admission(ctx: BoxesContext, box: BoxRow, host: boolean) {
  const plan = await planOf(ctx);
  return (tx: BoxesTx) => admit(tx, ctx, plan, { vcpus: box.vcpus, memMiB: box.memMiB }, { exceptBoxId: box.id, host });
}

/** A stopped box starts again from its disk with fresh processes; jobs of its previous run are over. */
async function startFresh(ctx: BoxesContext, box: BoxRow): Promise<StateChange> {
  await endRunningJobs(ctx, box, "the box was stopped while the job ran");
  await ctx.driver.stop(boxHandle(box)).catch(() => {});
  const runtime = await ctx.driver.start(boxSpec(box));
  return { state: "running", reason: "started again from its disk", runtime };
}

/**
 * Runs a claimed operation's work in the background and records its outcome; with `wait`, answers
 * when it is done (or after 60 s, showing the operation still in progress).
 */
export async function runOperation(
  ctx: BoxesRuntime,
  box: BoxRow,
  kind: OperationKind,
  wait: boolean,
  signal: AbortSignal | undefined,
  work: () => Promise<StateChange>,
): Promise<BoxView> {
  const done = ctx.background.run(`${kind} ${box.id}`, async () => {
    let change: StateChange;
    try {
      change = await work();
    } catch (error) {
      change = await failedChange(ctx, box, kind, error);
    }
    return changeState(ctx, box.id, change);
  });
  if (!wait) return boxAnswer(ctx, box);
  const finished = await settleWithin(done, powerWaitMs, signal);
  return boxAnswer(ctx, finished ?? (await ctx.db.box.findUniqueOrThrow({ where: { id: box.id } })));
}

async function failedChange(ctx: BoxesRuntime, box: BoxRow, kind: OperationKind, error: unknown): Promise<StateChange> {
  ctx.log.warn({ err: error, boxId: box.id, kind }, "box operation failed");
  if (kind === "delete") return { state: "deleting", reason: `deleting failed (${(error as Error).message}); call delete_box again` };
  if (kind === "start") return { state: "stopped", reason: `could not start: ${(error as Error).message}`, runtime: null };
  // Unknown (the driver could not look) is not "gone": the box keeps its state and its runtime.
  const liveness = await ctx.driver.inspect(boxHandle(box)).catch(() => null);
  if (liveness === null) return { state: box.state, reason: `${kind} failed: ${(error as Error).message}` };
  if (liveness === "gone" || error instanceof DriverError) return { state: "stopped", reason: goneReason, runtime: null };
  const state: BoxState = liveness === "frozen" ? frozenStateOf(box) : "running";
  return { state, reason: `${kind} failed: ${(error as Error).message}` };
}

export async function settleWithin<T>(promise: Promise<T>, timeoutMs: number, signal?: AbortSignal): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
    onAbort = () => resolve(null);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([promise.catch(() => null), timeout]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}
