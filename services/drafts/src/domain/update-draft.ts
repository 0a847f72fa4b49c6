import { invalidArgument } from "@bancada/contracts";
import { Prisma } from "../db/generated/client.js";
import { transaction, type DraftsTx } from "../db/client.js";
import { reachWorkspace } from "./access.js";
import { changeDraft, type LockedDraft } from "./change-draft.js";
import type { DraftsContext } from "./context.js";
import { idempotent } from "./idempotency.js";
import { canonicalUuid } from "./json-formats.js";
import { draftView, type DraftView, type UpdateDraftInput } from "./schemas.js";

/** Changes caption, accounts (whole list) and/or removes assets of a `draft`, at the revision the caller read. */
export function updateDraft(ctx: DraftsContext, input: UpdateDraftInput): Promise<DraftView> {
  if (input.caption === undefined && input.account_ids === undefined && !input.remove_asset_ids?.length) {
    throw invalidArgument([{ path: "", message: "nothing to change: give caption, account_ids and/or remove_asset_ids" }]);
  }
  const workspaceId = canonicalUuid(input.workspace_id);
  const draftId = canonicalUuid(input.draft_id);
  const removeIds = input.remove_asset_ids?.map(canonicalUuid);
  return transaction(ctx.db, async (tx) => {
    await reachWorkspace(tx, ctx, workspaceId, "editor");
    const write = {
      workspaceId,
      requestId: canonicalUuid(input.request_id),
      operation: "update_draft",
      personId: ctx.personId,
      args: {
        draft_id: draftId,
        expected_revision: input.expected_revision,
        caption: input.caption ?? null,
        account_ids: input.account_ids ?? null,
        remove_asset_ids: removeIds ?? null,
      },
    };
    return idempotent(tx, write, draftView, () =>
      changeDraft(tx, ctx, { workspaceId, draftId, expectedRevision: input.expected_revision }, async (locked) => {
        const set: Prisma.Sql[] = [];
        if (input.caption !== undefined) set.push(Prisma.sql`caption = ${input.caption}`);
        if (input.account_ids !== undefined) set.push(Prisma.sql`account_ids = ${input.account_ids}::text[]`);
        if (removeIds?.length) set.push(await removeAssets(tx, locked, removeIds));
        return set;
      }),
    );
  });
}

/** Every id must be an asset of this draft; the bytes stay in the store until no draft refers to them. */
async function removeAssets(tx: DraftsTx, locked: LockedDraft, ids: string[]): Promise<Prisma.Sql> {
  const unique = [...new Set(ids)];
  const found = await tx.asset.findMany({ where: { draftId: locked.id, id: { in: unique } }, select: { id: true } });
  const known = new Set(found.map((asset) => asset.id));
  const missing = ids.map((id, index) => ({ id, index })).filter(({ id }) => !known.has(id));
  if (missing.length) {
    throw invalidArgument(missing.map(({ index }) => ({ path: `remove_asset_ids[${index}]`, message: "not an asset of this draft" })));
  }
  await tx.asset.deleteMany({ where: { draftId: locked.id, id: { in: unique } } });
  return Prisma.sql`asset_count = asset_count - ${unique.length}::int`;
}
