/**
 * Reading drafts and shaping them for callers. `created_by`/`updated_by` keep the acting key's personId
 * as given; the tools' views carry a UUID or null (docs/drafts.md#decisions), so a personId that is not a UUID shows as null.
 */
import type { DraftsTx } from "../db/client.js";
import type { Asset, Draft } from "../db/generated/client.js";
import { canonicalUuid, firstCodePoints, isUuid } from "./json-formats.js";
import { limits } from "./limits.js";
import type { AssetView, DraftSummary, DraftView } from "./schemas.js";

type Reader = Pick<DraftsTx, "draft">;

export async function readDraft(q: Reader, workspaceId: string, draftId: string): Promise<DraftView | null> {
  const row = await q.draft.findFirst({
    where: { id: draftId, workspaceId },
    include: { assets: { orderBy: { position: "asc" } } },
  });
  return row ? toDraftView(row, row.assets) : null;
}

function toDraftView(row: Draft, assets: Asset[]): DraftView {
  const accountIds = row.accountIds ?? [];
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    revision: row.revision,
    state: row.state,
    caption: row.caption,
    account_ids: accountIds,
    assets: assets.map(toAssetView),
    asset_count: row.assetCount,
    account_count: accountIds.length,
    created_by: personRef(row.createdBy),
    updated_by: personRef(row.updatedBy),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    submitted_at: row.submittedAt?.toISOString() ?? null,
    submit_error: row.submitError,
  };
}

export interface SummaryRow {
  id: string;
  workspace_id: string;
  revision: number;
  state: DraftSummary["state"];
  caption_preview: string;
  asset_count: number;
  account_count: number;
  created_by: string | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export function toSummary(row: SummaryRow): DraftSummary {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    revision: row.revision,
    state: row.state,
    // Postgres' left() already counts code points; this keeps the guarantee whatever the database does.
    caption_preview: firstCodePoints(row.caption_preview, limits.previewMax),
    asset_count: row.asset_count,
    account_count: row.account_count,
    created_by: personRef(row.created_by),
    updated_by: personRef(row.updated_by),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function toAssetView(asset: Asset): AssetView {
  return {
    id: asset.id,
    filename: asset.filename,
    mime: asset.mime,
    bytes: asset.bytes,
    sha256: asset.sha256,
    content_path: `/v1/workspaces/${asset.workspaceId}/drafts/${asset.draftId}/assets/${asset.id}/content`,
    created_at: asset.createdAt.toISOString(),
  };
}

function personRef(personId: string | null): string | null {
  return personId !== null && isUuid(personId) ? canonicalUuid(personId) : null;
}
