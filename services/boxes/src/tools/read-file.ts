import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { readBoxFile } from "../domain/files.js";
import { imageTypeOf } from "../domain/media-types.js";
import { readFileInput, readFileResult } from "../domain/schemas/exec.js";
import { onBox, readsOnly } from "./context.js";

export const readFileTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "read_file",
    title: "Read a file",
    description:
      "Reads a file of up to 1 MB from the box. UTF-8 text comes back with encoding utf8; anything else as base64. " +
      "The path is absolute in the box or relative to /data/home. Larger files: read parts with exec (head -c, tail -c).",
    input: readFileInput,
    output: readFileResult,
    annotations: readsOnly,
    scope: "boxes:read",
    profile: "core",
    maxDurationMs: 70_000,
    handler: async (ctx, input) => readBoxFile(await onBox(rt, ctx, input.boxId), input),
    // an image is shown to the person as an image, beside the same bytes in the structured result
    present: (result) => {
      const mimeType = result.encoding === "base64" ? imageTypeOf(result.path) : undefined;
      return mimeType ? [{ type: "image", data: result.content, mimeType }] : undefined;
    },
  });
