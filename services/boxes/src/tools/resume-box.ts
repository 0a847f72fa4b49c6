import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { resumeBox } from "../domain/power.js";
import { boxResult, powerInput } from "../domain/schemas/box.js";
import { onBox, createsOrChanges } from "./context.js";

export const resumeBoxTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "resume_box",
    title: "Resume a box",
    description:
      "Resumes a paused or stopped box. A paused (or sleeping) box comes back with its processes where they were; a stopped box starts fresh from its disk.",
    input: powerInput,
    output: boxResult,
    annotations: createsOrChanges(true),
    scope: "boxes:write",
    profile: "core",
    maxDurationMs: 70_000,
    handler: async (ctx, input) => ({ box: await resumeBox(await onBox(rt, ctx, input.boxId, true), input, ctx.signal) }),
  });
