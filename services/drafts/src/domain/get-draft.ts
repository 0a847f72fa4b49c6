import { draftNotFound, reachWorkspace } from "./access.js";
import type { DraftsContext } from "./context.js";
import { readDraft } from "./draft-view.js";
import { canonicalUuid } from "./json-formats.js";
import type { DraftView, GetDraftInput } from "./schemas.js";

/** Reopens one draft in full (caption, accounts, asset metadata); any member of the workspace may. */
export async function getDraft(ctx: DraftsContext, input: GetDraftInput): Promise<DraftView> {
  const workspaceId = canonicalUuid(input.workspace_id);
  const draftId = canonicalUuid(input.draft_id);
  await reachWorkspace(ctx.db, ctx, workspaceId, "viewer");
  const draft = await readDraft(ctx.db, workspaceId, draftId);
  if (!draft) throw draftNotFound(workspaceId, draftId);
  return draft;
}
