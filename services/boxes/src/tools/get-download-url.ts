import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { issueDownloadUrl } from "../domain/transfers/issue-url.js";
import { downloadUrlInput, transferUrlResult } from "../domain/schemas/transfer.js";
import { onBox, readsOnly } from "./context.js";

export const getDownloadUrlTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "get_download_url",
    title: "Download URL",
    description:
      "Makes a signed URL (valid 1 h, no API key needed) to download a file of any size from the box with one GET (byte ranges work). " +
      "For a folder pass archive: true: it comes as tar.zst (folders up to 2 GB), e.g. curl '<url>' | tar --zstd -xf -. Using the URL wakes a sleeping box.",
    input: downloadUrlInput,
    output: transferUrlResult,
    annotations: readsOnly,
    scope: "boxes:read",
    profile: "core",
    handler: async (ctx, input) => issueDownloadUrl(await onBox(rt, ctx, input.boxId), input),
  });
