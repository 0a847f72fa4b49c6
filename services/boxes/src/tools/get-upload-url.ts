import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { issueUploadUrl } from "../domain/transfers/issue-url.js";
import { transferUrlResult, uploadUrlInput } from "../domain/schemas/transfer.js";
import { onBox, createsOrChanges } from "./context.js";

export const getUploadUrlTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "get_upload_url",
    title: "Upload URL",
    description:
      "Makes a signed URL (valid 1 h, no API key needed) to send a large file (up to 5 GB) straight into the box with one PUT, e.g. " +
      "curl -X PUT -H 'Content-Type: application/octet-stream' --data-binary @file '<url>'. The file appears at path (missing folders are made) " +
      "only once every byte arrived; an interrupted upload leaves nothing. mode is octal (default 0644). Using the URL wakes a sleeping box.",
    input: uploadUrlInput,
    output: transferUrlResult,
    annotations: createsOrChanges(false),
    scope: "boxes:write",
    profile: "core",
    handler: async (ctx, input) => issueUploadUrl(await onBox(rt, ctx, input.boxId), input),
  });
