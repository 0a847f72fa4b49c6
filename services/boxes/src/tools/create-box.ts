import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { onNewBoxNode } from "../domain/box-node.js";
import { createBox } from "../domain/create-box.js";
import { boxResult, createBoxInput } from "../domain/schemas/box.js";
import { boxesContext, createsOrChanges } from "./context.js";

export const createBoxTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "create_box",
    title: "Create a box",
    description:
      "Creates a box (a Linux computer). By default waits until it is running (up to 120 s, with progress every 2 s); with wait: false, poll get_box. " +
      "With snapshotId it starts from that snapshot's disk (save_snapshot). " +
      "Delete it with delete_box when done. Use metadata.kind for the kind of task (e.g. render, tests). " +
      "It sleeps after autoSuspendSeconds without exec, job or file calls (those wake it), is suspended after maxRunMinutes running (resume_box wakes it) and is deleted deleteAfterSeconds after creation (get_box: enforcement). " +
      "`setup` runs once before the box counts as running (job 'setup'); `task` starts as a background job once it runs. " +
      "Pass an idempotencyKey so that a retry returns the same box instead of creating a second one.",
    input: createBoxInput,
    output: boxResult,
    annotations: createsOrChanges(false),
    scope: "boxes:write",
    profile: "core",
    maxDurationMs: 130_000,
    task: "optional",
    handler: async (ctx, input) => ({
      box: await createBox(await onNewBoxNode(boxesContext(rt, ctx), input), input, ctx.signal, ctx.progress),
    }),
  });
