/**
 * REST: asset bytes. Over HTTP a file cannot be named by a local path (that tool is stdio-only), so the
 * bytes are the request body, streamed straight into the blob store; downloads stream them back. The upload
 * is that tool's use case and takes its access (REST is not an MCP transport, so stdio-only does not apply);
 * no tool downloads, so that route declares its own.
 */
import { pipeline } from "node:stream/promises";
import { Router } from "express";
import { restRoutes } from "@bancada/service-kit";
import { z } from "zod";
import { DomainError, ErrorCode, invalidArgument } from "@bancada/contracts";
import { missingBlob } from "../assets/blob-store.js";
import { addAsset } from "../domain/add-asset.js";
import type { DraftsDeps } from "../domain/context.js";
import { assetRef, getAsset } from "../domain/get-asset.js";
import { addAssetFields, assetResult } from "../domain/schemas.js";
import { addContentDraftAssetTool } from "../tools/add-content-draft-asset.js";
import { ifMatch, restContext, routeReads } from "./context.js";

const uploadInput = z.strictObject({ ...addAssetFields, filename: addAssetFields.filename.unwrap() });

/** What the upload takes in its query string (the path and headers give the rest). */
const uploadQuery = z.object({
  filename: addAssetFields.filename.unwrap(),
  expected_revision: z.number().int().min(1).optional(),
  request_id: z.string().optional(),
});

export function assetRoutes(deps: DraftsDeps): Router {
  const router = Router();
  const routes = restRoutes(router);
  const base = "/v1/workspaces/:workspaceId/drafts/:draftId/assets";
  const upload = addContentDraftAssetTool(deps);

  routes.post(
    base,
    {
      summary: "Upload an asset's bytes (query filename; expected_revision or If-Match)",
      access: upload,
      query: uploadQuery,
      body: "bytes",
      headers: { "If-Match": "the draft revision you read", "Idempotency-Key": "a retry with the same key answers the first result" },
      status: 201,
      response: assetResult,
    },
    async (req, res) => {
      const ctx = restContext(deps, req, upload);
      if (req.is("application/json")) {
        throw invalidArgument([
          { path: "body", message: "send the file's bytes with its own Content-Type (or application/octet-stream), not JSON" },
        ]);
      }
      const declared = Number(req.header("Content-Length"));
      if (declared > deps.blobs.maxBytes) {
        throw new DomainError(ErrorCode.payloadTooLarge, `Too large: body: an asset may hold at most ${deps.blobs.maxBytes} bytes.`, {
          issues: [{ path: "body", message: `must be at most ${deps.blobs.maxBytes} bytes` }],
          limitBytes: deps.blobs.maxBytes,
        });
      }
      const input = uploadInput.parse({
        workspace_id: req.params.workspaceId,
        draft_id: req.params.draftId,
        expected_revision: ifMatch(req) ?? numberOf(req.query.expected_revision),
        request_id: req.header("Idempotency-Key") ?? req.query.request_id,
        filename: req.query.filename,
      });
      const result = await addAsset(ctx, { ...input, open: () => req, field: "body" });
      res.status(201).setHeader("ETag", `"${result.draft.revision}"`).json(result);
    },
  );

  routes.get(
    `${base}/:assetId/content`,
    { summary: "Download an asset's bytes", access: routeReads, response: "bytes" },
    async (req, res) => {
      const ctx = restContext(deps, req, routeReads);
      const asset = await getAsset(
        ctx,
        assetRef.parse({ workspace_id: req.params.workspaceId, draft_id: req.params.draftId, asset_id: req.params.assetId }),
      );
      if ((await deps.blobs.size(asset.sha256)) !== asset.bytes) throw missingBlob(asset.sha256);
      res.setHeader("Content-Type", asset.mime);
      res.setHeader("Content-Length", String(asset.bytes));
      res.setHeader("ETag", `"${asset.sha256}"`);
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.setHeader("Content-Disposition", `attachment; filename*=UTF-8''${encodeURIComponent(asset.filename)}`);
      await pipeline(deps.blobs.open(asset.sha256), res);
    },
  );
  return router;
}

function numberOf(value: unknown): unknown {
  return typeof value === "string" && value !== "" ? Number(value) : value;
}
