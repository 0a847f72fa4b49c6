import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { suspendBox } from "../domain/power.js";
import { boxResult, powerInput } from "../domain/schemas/box.js";
import { onBox, createsOrChanges } from "./context.js";

export const suspendBoxTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "suspend_box",
    title: "Pause a box",
    description:
      "Pauses the box keeping its memory and processes (they are frozen). A box paused by you only comes back with resume_box: " +
      "exec, start_job and the file calls answer failed_precondition meanwhile.",
    input: powerInput,
    output: boxResult,
    annotations: createsOrChanges(true),
    scope: "boxes:write",
    maxDurationMs: 70_000,
    handler: async (ctx, input) => ({ box: await suspendBox(await onBox(rt, ctx, input.boxId, true), input, ctx.signal) }),
  });
