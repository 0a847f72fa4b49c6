/**
 * Ends one submission in a single transaction: the job is marked finished (only if this claim still
 * holds it), the draft moves `submitting → submitted` (or back to `draft` with submit_error), and the
 * event is written to the outbox with the job's id as its own. Either all of it commits or none: a crash
 * before the commit leaves the job to be claimed again; after it, the job is finished and cannot be
 * claimed. The event's primary key makes a second submission of the same job impossible even in theory.
 */
import { Prisma } from "../db/generated/client.js";
import { transaction, type DraftsDb, type DraftsTx } from "../db/client.js";
import { bumpAssignments } from "../domain/change-draft.js";
import { readDraft } from "../domain/draft-view.js";
import type { ClaimedJob } from "./submission-queue.js";

export type Verdict = { kind: "accepted" } | { kind: "refused"; problems: string[] } | { kind: "abandoned"; reason: string };

export type FinishOutcome = "submitted" | "refused" | "lease_lost" | "stale";

export const eventTypes = { submitted: "draft.submitted", refused: "draft.submission_refused" } as const;

export function finishSubmission(
  db: DraftsDb,
  job: ClaimedJob,
  verdict: Verdict,
  beforeCommit?: (job: ClaimedJob) => Promise<void>,
): Promise<FinishOutcome> {
  const outcome = verdict.kind === "accepted" ? "submitted" : verdict.kind;
  return transaction(db, async (tx) => {
    const owned = await tx.$executeRaw`
      UPDATE submission_jobs SET finished_at = now(), outcome = ${outcome}, lease_owner = NULL, lease_expires_at = NULL
       WHERE id = ${job.id}::uuid AND lease_owner = ${job.claim} AND finished_at IS NULL`;
    if (owned === 0) return "lease_lost";
    const moved = await tx.$executeRaw`
      UPDATE drafts SET ${Prisma.join([...stateAssignments(verdict), ...bumpAssignments(null)], ", ")}
       WHERE id = ${job.draftId}::uuid AND state = 'submitting' AND revision = ${job.revision}`;
    if (moved === 0) {
      await tx.$executeRaw`UPDATE submission_jobs SET outcome = 'stale' WHERE id = ${job.id}::uuid`;
      return "stale";
    }
    await recordEvent(tx, job, verdict);
    await beforeCommit?.(job);
    return verdict.kind === "accepted" ? "submitted" : "refused";
  });
}

function stateAssignments(verdict: Verdict): Prisma.Sql[] {
  if (verdict.kind === "accepted") {
    return [
      Prisma.sql`state = 'submitted'`,
      Prisma.sql`submitted_at = date_trunc('milliseconds', clock_timestamp())`,
      Prisma.sql`submit_error = NULL`,
    ];
  }
  const message = verdict.kind === "refused" ? verdict.problems.join(" ") : verdict.reason;
  return [Prisma.sql`state = 'draft'`, Prisma.sql`submit_error = ${message}`];
}

async function recordEvent(tx: DraftsTx, job: ClaimedJob, verdict: Verdict): Promise<void> {
  const draft = (await readDraft(tx, job.workspaceId, job.draftId))!;
  const accepted = verdict.kind === "accepted";
  const type = accepted ? eventTypes.submitted : eventTypes.refused;
  const payload = {
    event_id: job.id,
    type,
    workspace_id: draft.workspace_id,
    draft_id: draft.id,
    revision: draft.revision,
    ...(accepted
      ? {
          submitted_at: draft.submitted_at,
          caption: draft.caption,
          account_ids: draft.account_ids,
          assets: draft.assets.map(({ id, mime, bytes, sha256 }) => ({ id, mime, bytes, sha256 })),
        }
      : { submit_error: draft.submit_error }),
  };
  await tx.$executeRaw`
    INSERT INTO events (id, workspace_id, draft_id, type, payload, created_at)
    VALUES (${job.id}::uuid, ${job.workspaceId}::uuid, ${job.draftId}::uuid, ${type}, ${JSON.stringify(payload)}::jsonb, now())`;
}
