/**
 * Expiry jobs: idempotency records after 7 days, activity events after 90 days, closed proposals 90
 * days after they closed (their suggestions go with them). Each run holds a transaction-scoped
 * advisory lock (pg_try_advisory_xact_lock), so with several replicas one runs a job at a time and the
 * others skip it. Jobs run as the system role, the only role whose policies see every row.
 */
import type { BoardsDb, BoardsTx } from "../db/client.js";
import { asSystem } from "../db/session.js";
import { retention } from "./limits.js";

export interface ExpiryJob {
  name: "idempotency_records" | "activity_events" | "closed_proposals";
  lockKey: number;
  expire: (tx: BoardsTx) => Promise<number>;
}

/** Advisory lock namespace of the expiry jobs (board ordering locks use 7381). */
export const expiryLockClass = 7382;

export const expiryJobs: ExpiryJob[] = [
  {
    name: "idempotency_records",
    lockKey: 1,
    expire: (tx) =>
      tx.$executeRaw`DELETE FROM idempotency_records WHERE created_at < now() - make_interval(secs => ${retention.idempotencyMs / 1000})`,
  },
  {
    name: "activity_events",
    lockKey: 2,
    expire: (tx) =>
      tx.$executeRaw`DELETE FROM activity_events WHERE created_at < now() - make_interval(secs => ${retention.activityMs / 1000})`,
  },
  {
    name: "closed_proposals",
    lockKey: 3,
    expire: (tx) =>
      tx.$executeRaw`DELETE FROM proposals WHERE closed_at < now() - make_interval(secs => ${retention.closedProposalMs / 1000})`,
  },
];

export type ExpiryOutcome = { job: ExpiryJob["name"]; ran: boolean; deleted: number };

export function runExpiryJob(db: BoardsDb, job: ExpiryJob): Promise<ExpiryOutcome> {
  return asSystem(db, async (tx) => {
    const [lock] = await tx.$queryRaw<
      { locked: boolean }[]
    >`SELECT pg_try_advisory_xact_lock(${expiryLockClass}::int, ${job.lockKey}::int) AS locked`;
    if (!lock?.locked) return { job: job.name, ran: false, deleted: 0 };
    return { job: job.name, ran: true, deleted: await job.expire(tx) };
  });
}

export async function runExpiryJobs(db: BoardsDb): Promise<ExpiryOutcome[]> {
  const outcomes: ExpiryOutcome[] = [];
  for (const job of expiryJobs) outcomes.push(await runExpiryJob(db, job));
  return outcomes;
}
