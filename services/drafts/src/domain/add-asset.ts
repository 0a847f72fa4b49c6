/**
 * Adds a media file to a draft. The bytes go to the blob store first (streamed, hashed, measured, typed
 * by content), then one transaction records the asset at the revision the caller read. A cheap check
 * before the upload refuses a stale revision, a draft that cannot change or a full draft without
 * reading the bytes; the transaction checks it all again under the row lock.
 */
import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { invalidArgument } from "@bancada/contracts";
import { Prisma } from "../db/generated/client.js";
import { transaction, type Queryable } from "../db/client.js";
import { reachWorkspace } from "./access.js";
import { changeDraft, checkChangeable, type DraftRef } from "./change-draft.js";
import type { DraftsContext } from "./context.js";
import { idempotent } from "./idempotency.js";
import { canonicalUuid } from "./json-formats.js";
import { limits } from "./limits.js";
import { assetResult, type AssetView, type DraftView } from "./schemas.js";

export interface AssetUpload {
  workspace_id: string;
  draft_id: string;
  expected_revision: number;
  request_id: string;
  filename: string;
  /** Opens the bytes; called once, after the early checks passed. */
  open: () => Readable;
  /** The argument that carries the bytes, for error messages ("path" over MCP, "body" over REST). */
  field: string;
}

export async function addAsset(ctx: DraftsContext, upload: AssetUpload): Promise<{ draft: DraftView; asset: AssetView }> {
  const ref: DraftRef = {
    workspaceId: canonicalUuid(upload.workspace_id),
    draftId: canonicalUuid(upload.draft_id),
    expectedRevision: upload.expected_revision,
  };
  const requestId = canonicalUuid(upload.request_id);
  await reachWorkspace(ctx.db, ctx, ref.workspaceId, "editor");
  if (!(await requestRecorded(ctx.db, ref.workspaceId, requestId))) {
    const draft = await checkChangeable(ctx.db, ref, false);
    if (draft.assetCount >= limits.assetsMax) throw draftFull();
  }
  const blob = await ctx.blobs.put(upload.open(), upload.field);
  return transaction(ctx.db, async (tx) => {
    await reachWorkspace(tx, ctx, ref.workspaceId, "editor");
    const write = {
      workspaceId: ref.workspaceId,
      requestId,
      operation: "add_asset",
      personId: ctx.personId,
      args: {
        draft_id: ref.draftId,
        expected_revision: ref.expectedRevision,
        filename: upload.filename,
        sha256: blob.sha256,
        bytes: blob.bytes,
      },
    };
    return idempotent(tx, write, assetResult, async () => {
      const assetId = randomUUID();
      const draft = await changeDraft(tx, ctx, ref, async (locked) => {
        if (locked.assetCount >= limits.assetsMax) throw draftFull();
        await tx.$executeRaw`
          INSERT INTO assets (id, draft_id, workspace_id, position, filename, mime, bytes, sha256, created_by, created_at)
          SELECT ${assetId}::uuid, ${ref.draftId}::uuid, ${ref.workspaceId}::uuid, COALESCE(MAX(position), 0) + 1,
                 ${upload.filename}, ${blob.mime}, ${blob.bytes}::int, ${blob.sha256}, ${ctx.personId}, date_trunc('milliseconds', clock_timestamp())
            FROM assets WHERE draft_id = ${ref.draftId}::uuid`;
        return [Prisma.sql`asset_count = asset_count + 1`];
      });
      return { draft, asset: draft.assets.find((asset) => asset.id === assetId)! };
    });
  });
}

async function requestRecorded(q: Queryable, workspaceId: string, requestId: string): Promise<boolean> {
  const rows = await q.$queryRaw<unknown[]>`
    SELECT 1 FROM write_requests WHERE workspace_id = ${workspaceId}::uuid AND request_id = ${requestId}::uuid`;
  return rows.length > 0;
}

function draftFull() {
  return invalidArgument([
    {
      path: "draft_id",
      message: `the draft already holds ${limits.assetsMax} assets, the most a draft may hold; remove one first (remove_asset_ids)`,
    },
  ]);
}
