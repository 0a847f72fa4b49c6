/**
 * The submission queue's claims. A worker claims the oldest ready job with FOR UPDATE SKIP LOCKED (two
 * workers never claim the same one) under a lease of the database's clock; it renews the lease while it
 * works. A worker that dies stops renewing, and once the lease has run out any worker claims the job again.
 * Every later write of the claimant is fenced by its claim token in `lease_owner` (worker id + a token per
 * claim, so that even two slots of one worker are told apart): whoever lost the claim changes nothing.
 */
import { randomUUID } from "node:crypto";
import type { DraftsDb } from "../db/client.js";

export interface ClaimedJob {
  id: string;
  draftId: string;
  workspaceId: string;
  revision: number;
  /** Attempts so far, this one included. */
  attempts: number;
  /** This claim's fencing token, kept in `lease_owner`. */
  claim: string;
}

export async function claimNext(db: DraftsDb, workerId: string, leaseMs: number): Promise<ClaimedJob | null> {
  const claim = `${workerId}#${randomUUID().slice(0, 8)}`;
  const [row] = await db.$queryRaw<{ id: string; draft_id: string; workspace_id: string; revision: number; attempts: number }[]>`
    UPDATE submission_jobs AS job
       SET lease_owner = ${claim},
           lease_expires_at = now() + ${leaseMs}::int * interval '1 millisecond',
           attempts = job.attempts + 1
      FROM (SELECT id FROM submission_jobs
             WHERE finished_at IS NULL AND available_at <= now()
               AND (lease_expires_at IS NULL OR lease_expires_at < now())
             ORDER BY available_at, id
             LIMIT 1
               FOR UPDATE SKIP LOCKED) AS next
     WHERE job.id = next.id
    RETURNING job.id::text, job.draft_id::text, job.workspace_id::text, job.revision, job.attempts`;
  return row
    ? { id: row.id, draftId: row.draft_id, workspaceId: row.workspace_id, revision: row.revision, attempts: row.attempts, claim }
    : null;
}

/** false when the claim is no longer held (finished, or taken over after the lease ran out). */
export async function renewLease(db: DraftsDb, job: ClaimedJob, leaseMs: number): Promise<boolean> {
  const count = await db.$executeRaw`
    UPDATE submission_jobs SET lease_expires_at = now() + ${leaseMs}::int * interval '1 millisecond'
     WHERE id = ${job.id}::uuid AND lease_owner = ${job.claim} AND finished_at IS NULL`;
  return count === 1;
}

/** Gives the job back after a failed attempt, to be retried after `delayMs`. */
export async function releaseForRetry(db: DraftsDb, job: ClaimedJob, delayMs: number, error: string): Promise<void> {
  await db.$executeRaw`
    UPDATE submission_jobs
       SET lease_owner = NULL, lease_expires_at = NULL, available_at = now() + ${delayMs}::int * interval '1 millisecond', last_error = ${error}
     WHERE id = ${job.id}::uuid AND lease_owner = ${job.claim} AND finished_at IS NULL`;
}
