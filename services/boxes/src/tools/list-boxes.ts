import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { listBoxes } from "../domain/list-boxes.js";
import { listBoxesInput, listBoxesResult } from "../domain/schemas/box.js";
import { boxesContext, readsOnly } from "./context.js";

export const listBoxesTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "list_boxes",
    title: "List boxes",
    description:
      "Lists the workspace's boxes (newest first) with state, size and metadata. Filter by state or by metadata pairs " +
      '(e.g. {"kind": "render"}). Deleted boxes only with includeDeleted. Returns { boxes, nextCursor }; pass nextCursor as cursor for the next page.',
    input: listBoxesInput,
    output: listBoxesResult,
    annotations: readsOnly,
    scope: "boxes:read",
    profile: "core",
    handler: (ctx, input) => listBoxes(boxesContext(rt, ctx), input),
  });
