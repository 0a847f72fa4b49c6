import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { writeBoxFile } from "../domain/files.js";
import { writeFileInput, writeFileResult } from "../domain/schemas/exec.js";
import { onBox, changesOrDeletes } from "./context.js";

export const writeFileTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "write_file",
    title: "Write a file",
    description:
      "Writes a file of up to 1 MB into the box, atomically (temporary file, then rename), creating missing folders unless parents: false. " +
      "Text as UTF-8, or encoding: base64 for binary. mode is octal (default 0644). Overwrites an existing file.",
    input: writeFileInput,
    output: writeFileResult,
    annotations: changesOrDeletes(true),
    scope: "boxes:write",
    profile: "core",
    maxDurationMs: 70_000,
    handler: async (ctx, input) => writeBoxFile(await onBox(rt, ctx, input.boxId), input),
  });
