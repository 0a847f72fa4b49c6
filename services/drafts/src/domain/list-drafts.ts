/**
 * The workspace's drafts that are not submitted yet, most recently changed first, by keyset pages.
 * A draft nobody touches while a client pages is returned exactly once; none is ever returned twice,
 * because a change only moves a draft forward (see change-draft.ts), ahead of any cursor already handed out.
 */
import { Prisma } from "../db/generated/client.js";
import { reachWorkspace } from "./access.js";
import type { DraftsContext } from "./context.js";
import { toSummary, type SummaryRow } from "./draft-view.js";
import { canonicalUuid } from "./json-formats.js";
import { keysetFilter } from "./keyset-cursor.js";
import { limits } from "./limits.js";
import type { ListDraftsInput, ListDraftsResult } from "./schemas.js";

// ORDER BY names the table's columns: a bare `id` would mean the selected `id::text` (text order, and no index order).
export async function listDrafts(ctx: DraftsContext, input: ListDraftsInput): Promise<ListDraftsResult> {
  const workspaceId = canonicalUuid(input.workspace_id);
  const limit = input.limit ?? limits.pageDefault;
  await reachWorkspace(ctx.db, ctx, workspaceId, "viewer");
  const after = input.cursor ? keysetFilter(input.cursor) : Prisma.sql`TRUE`;
  if (after === null) return { drafts: [], next_cursor: null, returned_count: 0 };
  const rows = await ctx.db.$queryRaw<SummaryRow[]>`
    SELECT id::text, workspace_id::text, revision, state::text AS state, left(caption, ${limits.previewMax}::int) AS caption_preview,
           asset_count, COALESCE(cardinality(account_ids), 0) AS account_count, created_by, updated_by, created_at, updated_at
      FROM drafts
     WHERE workspace_id = ${workspaceId}::uuid AND state <> 'submitted' AND ${after}
     ORDER BY drafts.updated_at DESC, drafts.id DESC
     LIMIT ${limit + 1}::int`;
  const page = rows.slice(0, limit).map(toSummary);
  const last = page.at(-1);
  return {
    drafts: page,
    next_cursor: rows.length > limit && last ? { updated_at: last.updated_at, id: last.id } : null,
    returned_count: page.length,
  };
}
