/**
 * Submitting hands a draft to the pipeline: in one transaction the draft moves `draft → submitting`
 * and a job is queued (submission_jobs). A worker later decides the outcome, so the answer here is
 * an acceptance, not a confirmation: read the draft back to see `submitted`, or `draft` with submit_error.
 */
import { randomUUID } from "node:crypto";
import { Prisma } from "../db/generated/client.js";
import { transaction } from "../db/client.js";
import { reachWorkspace } from "./access.js";
import { changeDraft } from "./change-draft.js";
import type { DraftsContext } from "./context.js";
import { idempotent } from "./idempotency.js";
import { canonicalUuid } from "./json-formats.js";
import { draftView, type DraftView, type SubmitDraftInput } from "./schemas.js";

export async function submitDraft(ctx: DraftsContext, input: SubmitDraftInput): Promise<DraftView> {
  const workspaceId = canonicalUuid(input.workspace_id);
  const draftId = canonicalUuid(input.draft_id);
  const draft = await transaction(ctx.db, async (tx) => {
    await reachWorkspace(tx, ctx, workspaceId, "editor");
    const write = {
      workspaceId,
      requestId: canonicalUuid(input.request_id),
      operation: "submit_draft",
      personId: ctx.personId,
      args: { draft_id: draftId, expected_revision: input.expected_revision },
    };
    return idempotent(tx, write, draftView, async () => {
      const view = await changeDraft(tx, ctx, { workspaceId, draftId, expectedRevision: input.expected_revision }, async () => [
        Prisma.sql`state = 'submitting'`,
        Prisma.sql`submit_error = NULL`,
      ]);
      await tx.$executeRaw`
        INSERT INTO submission_jobs (id, draft_id, workspace_id, revision, available_at, created_at)
        VALUES (${randomUUID()}::uuid, ${draftId}::uuid, ${workspaceId}::uuid, ${view.revision}, now(), now())`;
      return view;
    });
  });
  ctx.submitted();
  return draft;
}
