import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { forkBox } from "../domain/fork-box.js";
import { forkBoxInput, forkBoxResult } from "../domain/schemas/disk.js";
import { onBox, createsOrChanges } from "./context.js";

export const forkBoxTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "fork_box",
    title: "Fork a box",
    description:
      "Makes 1 to 5 copies of the box on the same machine: same disk (files, installed packages), not its memory (each copy starts with fresh processes). " +
      "The source is held still while its disk is copied, so the copies never see a half-written file. Copies have the source's size, policies and secrets; " +
      "names (one per copy) and metadata (added to the source's) are optional. By default waits until the copies run (up to 120 s, progress every 2 s); " +
      "with wait: false, poll get_box. Copies count against the plan like new boxes. Pass an idempotencyKey so that a retry returns the same copies.",
    input: forkBoxInput,
    output: forkBoxResult,
    annotations: createsOrChanges(false),
    scope: "boxes:write",
    profile: "core",
    maxDurationMs: 130_000,
    task: "optional",
    handler: async (ctx, input) => forkBox(await onBox(rt, ctx, input.boxId, true), input, ctx.signal, ctx.progress),
  });
