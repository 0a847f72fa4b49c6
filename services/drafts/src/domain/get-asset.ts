import { z } from "zod";
import { DomainError, ErrorCode } from "@bancada/contracts";
import { reachWorkspace } from "./access.js";
import type { DraftsContext } from "./context.js";
import { draftId, uuid, workspaceId } from "./fields.js";
import { canonicalUuid } from "./json-formats.js";

export const assetRef = z.strictObject({ workspace_id: workspaceId, draft_id: draftId, asset_id: uuid("The asset.") });
export type AssetRef = z.infer<typeof assetRef>;

/** An asset's metadata, for streaming its bytes to a member of the workspace (viewer or above). */
export async function getAsset(
  ctx: DraftsContext,
  ref: AssetRef,
): Promise<{ filename: string; mime: string; bytes: number; sha256: string }> {
  const workspaceId = canonicalUuid(ref.workspace_id);
  await reachWorkspace(ctx.db, ctx, workspaceId, "viewer");
  const asset = await ctx.db.asset.findFirst({
    where: { id: canonicalUuid(ref.asset_id), draftId: canonicalUuid(ref.draft_id), workspaceId },
    select: { filename: true, mime: true, bytes: true, sha256: true },
  });
  if (!asset) throw new DomainError(ErrorCode.notFound, `No asset ${ref.asset_id} on draft ${ref.draft_id}.`, { asset_id: ref.asset_id });
  return asset;
}
