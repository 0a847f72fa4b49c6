import { randomUUID } from "node:crypto";
import { transaction } from "../db/client.js";
import { reachWorkspace } from "./access.js";
import type { DraftsContext } from "./context.js";
import { readDraft } from "./draft-view.js";
import { idempotent } from "./idempotency.js";
import { canonicalUuid } from "./json-formats.js";
import { draftView, type CreateDraftInput, type DraftView } from "./schemas.js";

/** Starts a draft in a workspace (editor or above). A retry with the same request_id returns the same draft. */
export function createDraft(ctx: DraftsContext, input: CreateDraftInput): Promise<DraftView> {
  const workspaceId = canonicalUuid(input.workspace_id);
  const caption = input.caption ?? "";
  const accountIds = input.account_ids ?? [];
  return transaction(ctx.db, async (tx) => {
    await reachWorkspace(tx, ctx, workspaceId, "editor");
    const write = {
      workspaceId,
      requestId: canonicalUuid(input.request_id),
      operation: "create_draft",
      personId: ctx.personId,
      args: { caption, account_ids: accountIds },
    };
    return idempotent(tx, write, draftView, async () => {
      const id = randomUUID();
      await tx.$executeRaw`
        INSERT INTO drafts (id, workspace_id, revision, state, caption, account_ids, asset_count, created_by, updated_by, created_at, updated_at)
        SELECT ${id}::uuid, ${workspaceId}::uuid, 1, 'draft', ${caption}, ${accountIds}::text[], 0, ${ctx.personId}, ${ctx.personId}, now, now
          FROM (SELECT date_trunc('milliseconds', clock_timestamp()) AS now) AS clock`;
      return (await readDraft(tx, workspaceId, id))!;
    });
  });
}
