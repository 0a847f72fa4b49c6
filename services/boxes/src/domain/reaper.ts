/**
 * The box reapers, one periodic round (service.ts: every 5 s by default) that enforces the policies create_box
 * records (docs/boxes.md#reapers):
 *   deleteAfterSeconds  the box is deleted that long after it was created, in whatever state, as delete_box does;
 *   maxRunMinutes       a box running that long since it last entered `running` is paused: state `suspended`,
 *                       processes frozen and kept, only resume_box wakes it (−1: never);
 *   autoSuspendSeconds  a running box with no exec, job or file call for that long, and no job running, goes to
 *                       `sleeping`: frozen like a pause, woken by exec, start_job and the file tools (0: never).
 * Everything it looks at is in Postgres (created_at, running_since, last_activity_at, the jobs), so a restart
 * loses nothing. One replica per node reaps at a time: the round claims its boxes inside one transaction that
 * holds a transaction-scoped advisory lock (a second round meanwhile skips), and each claim is the conditional
 * UPDATE of the state machine (transitions.ts) — a box already claimed is never reaped twice.
 */
import type { BoxRow } from "../db/client.js";
import type { Operation, OperationKind } from "./box-view.js";
import type { BoxesRuntime } from "./context.js";
import { endRunningJobs } from "./end-jobs.js";
import { boxHandle } from "./find-box.js";
import { runOperation } from "./power.js";
import { freezeBox } from "./suspensions.js";
import { changeState } from "./transitions.js";

export interface ReapOptions {
  /** The time the round judges by (tests look ahead with it); default: now. */
  now?: Date;
}

/** What one round did: the ids of the boxes it put to sleep, paused and deleted; `skipped` when another round held the lock. */
export interface ReapResult {
  skipped: boolean;
  slept: string[];
  paused: string[];
  deleted: string[];
}

export async function reapBoxes(rt: BoxesRuntime, options: ReapOptions = {}): Promise<ReapResult> {
  const now = options.now ?? new Date();
  const claims = await claimDue(rt, now);
  if (!claims) return { skipped: true, slept: [], paused: [], deleted: [] };
  const result: ReapResult = { skipped: false, slept: [], paused: [], deleted: [] };
  const work = [
    ...claims.deleted.map((id) => act(rt, id, "delete", () => deleteDue(rt, id)).then((done) => done && result.deleted.push(id))),
    ...claims.paused.map((id) => act(rt, id, "suspend", () => pauseDue(rt, id)).then((done) => done && result.paused.push(id))),
    ...claims.slept.map((id) => act(rt, id, "suspend", () => sleepDue(rt, id)).then((done) => done && result.slept.push(id))),
  ];
  await Promise.all(work);
  return result;
}

/** The advisory lock's key: one reaper per driver and node (only this node's driver can act on its boxes). */
export const reaperLockName = (rt: BoxesRuntime) => `bancada boxes reaper ${rt.driver.kind} ${rt.driver.node}`;

/** Claims every due box in one transaction under the advisory lock; null when another round holds it. */
async function claimDue(rt: BoxesRuntime, now: Date): Promise<Omit<ReapResult, "skipped"> | null> {
  const at = now.toISOString();
  const operation = (kind: OperationKind, frozenState?: "sleeping") =>
    JSON.stringify({ kind, startedAt: at, instance: rt.instance, ...(frozenState ? { frozenState } : {}) } satisfies Operation);
  const { kind, node } = rt.driver;
  return rt.db.$transaction(async (tx) => {
    const [lock] = await tx.$queryRaw<
      { locked: boolean }[]
    >`SELECT pg_try_advisory_xact_lock(hashtextextended(${reaperLockName(rt)}, 0)) AS locked`;
    if (!lock?.locked) return null;
    const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
    // In this order: a box due for deletion is not also paused, one due for its run limit is paused, not put to sleep.
    const deleted = await tx.$queryRaw<{ id: string }[]>`
      UPDATE boxes SET operation = ${operation("delete")}::jsonb, version = version + 1, updated_at = now()
       WHERE driver = ${kind} AND node = ${node} AND operation IS NULL
         AND state::text NOT IN ('deleting', 'deleted')
         AND delete_after_seconds IS NOT NULL
         AND created_at + make_interval(secs => delete_after_seconds) <= ${at}::timestamptz
      RETURNING id`;
    const paused = await tx.$queryRaw<{ id: string }[]>`
      UPDATE boxes SET operation = ${operation("suspend")}::jsonb, version = version + 1, updated_at = now()
       WHERE driver = ${kind} AND node = ${node} AND operation IS NULL AND state::text = 'running'
         AND max_run_minutes <> -1
         AND COALESCE(running_since, state_changed_at) + make_interval(mins => max_run_minutes) <= ${at}::timestamptz
      RETURNING id`;
    const slept = await tx.$queryRaw<{ id: string }[]>`
      UPDATE boxes SET operation = ${operation("suspend", "sleeping")}::jsonb, version = version + 1, updated_at = now()
       WHERE driver = ${kind} AND node = ${node} AND operation IS NULL AND state::text = 'running'
         AND auto_suspend_seconds > 0
         AND last_activity_at + make_interval(secs => auto_suspend_seconds) <= ${at}::timestamptz
         AND NOT EXISTS (SELECT 1 FROM jobs WHERE jobs.box_id = boxes.id AND jobs.status::text = 'running')
      RETURNING id`;
    return { deleted: ids(deleted), paused: ids(paused), slept: ids(slept) };
  });
}

/** Runs the claimed operation's work (power.ts records its outcome); true when the box reached the state wanted. */
async function act(rt: BoxesRuntime, id: string, kind: OperationKind, work: (box: BoxRow) => Promise<Outcome>): Promise<boolean> {
  try {
    const box = await rt.db.box.findUniqueOrThrow({ where: { id } });
    let wanted: string | undefined;
    const view = await runOperation(rt, box, kind, true, undefined, async () => {
      const outcome = await work(box);
      wanted = outcome.state;
      return outcome;
    });
    const done = view.state === wanted;
    if (done) rt.log.info({ boxId: id, state: view.state, reason: view.stateReason }, "box reaped");
    return done;
  } catch (error) {
    rt.log.error({ err: error, boxId: id, kind }, "reaping a box failed");
    return false;
  }
}

type Outcome = { state: "deleted" | "suspended" | "sleeping"; reason: string; runtime?: null };

async function deleteDue(rt: BoxesRuntime, id: string): Promise<Outcome> {
  const box = await rt.db.box.findUniqueOrThrow({ where: { id } });
  const reason = `deleted automatically ${box.deleteAfterSeconds} s after it was created (deleteAfterSeconds)`;
  await changeState(rt, id, { state: "deleting", reason, endOperation: false });
  await rt.driver.destroy(boxHandle(box));
  await endRunningJobs(rt, box, "the box was deleted");
  return { state: "deleted", reason, runtime: null };
}

async function pauseDue(rt: BoxesRuntime, id: string): Promise<Outcome> {
  const box = await rt.db.box.findUniqueOrThrow({ where: { id } });
  const reason = `paused: the run limit was reached (maxRunMinutes ${box.maxRunMinutes} since it last started running); processes are kept, only resume_box wakes it`;
  await freezeBox(rt, box, { state: "suspended", reason });
  return { state: "suspended", reason };
}

async function sleepDue(rt: BoxesRuntime, id: string): Promise<Outcome> {
  const box = await rt.db.box.findUniqueOrThrow({ where: { id } });
  const reason = `asleep: no exec, job or file call for ${box.autoSuspendSeconds} s (autoSuspendSeconds); exec, start_job or a file call wakes it`;
  await freezeBox(rt, box, { state: "sleeping", reason });
  return { state: "sleeping", reason };
}
