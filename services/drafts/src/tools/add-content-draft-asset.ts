import { defineTool } from "@bancada/service-kit";
import { addLocalAsset } from "../domain/add-local-asset.js";
import type { DraftsDeps } from "../domain/context.js";
import { addAssetInput, assetResult } from "../domain/schemas.js";
import { draftsContext, writeAnnotations } from "./context.js";

/** Local files exist only where the caller runs: stdio only, never listed over HTTP (REST upload there). */
export const addContentDraftAssetTool = (deps: DraftsDeps) =>
  defineTool({
    name: "sosoapi_add_content_draft_asset",
    title: "Add a local file to a draft",
    description:
      "Uploads a local image (JPEG, PNG, GIF, WebP) or video (MP4, MOV) of at most 10 MiB, named by its absolute path, to a draft (at most 20 assets). " +
      "Only over the stdio transport; over HTTP upload the bytes with POST /v1/workspaces/{workspace_id}/drafts/{draft_id}/assets instead. " +
      "Requires editor or above, expected_revision and a fresh request_id. The result carries the asset's metadata, never its bytes.",
    input: addAssetInput,
    output: assetResult,
    annotations: writeAnnotations,
    scope: "drafts:write",
    profile: "full",
    transports: ["stdio"],
    maxDurationMs: 60_000,
    handler: (ctx, input) => addLocalAsset(draftsContext(deps, ctx), input),
  });
