import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { deleteBox } from "../domain/delete-box.js";
import { boxResult, deleteBoxInput } from "../domain/schemas/box.js";
import { onBox, changesOrDeletes } from "./context.js";

export const deleteBoxTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "delete_box",
    title: "Delete a box",
    description:
      "Deletes the box and all its files, in any state. There is no way back: requires confirm: true. Save what you need first (read_file, get_download_url or save_snapshot). " +
      "A box being created, forked or saved as a snapshot is deleted too: that operation is cancelled (a fork's unfinished copies are deleted, the snapshot fails).",
    input: deleteBoxInput,
    output: boxResult,
    annotations: changesOrDeletes(true),
    scope: "boxes:delete",
    profile: "core",
    maxDurationMs: 70_000,
    confirmation: { message: "Delete box `{boxId}` and all its files? This cannot be undone.", argument: "confirm" },
    handler: async (ctx, input) => ({ box: await deleteBox(await onBox(rt, ctx, input.boxId, true), input, ctx.signal) }),
  });
