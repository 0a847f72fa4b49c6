import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { saveSnapshot } from "../domain/save-snapshot.js";
import { saveSnapshotInput, snapshotResult } from "../domain/schemas/disk.js";
import { onBox, createsOrChanges } from "./context.js";

export const saveSnapshotTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "save_snapshot",
    title: "Save a snapshot",
    description:
      "Saves the box's disk (its files, not its memory) as a snapshot, to create identical boxes later with create_box snapshotId. " +
      "The box is held still while its disk is copied, so the snapshot never holds a half-written file; it keeps its state. " +
      "By default waits up to 60 s for the snapshot to be ready; otherwise list_snapshots shows when it is. The snapshot counts against the plan's disk.",
    input: saveSnapshotInput,
    output: snapshotResult,
    annotations: createsOrChanges(false),
    scope: "images:write",
    profile: "core",
    maxDurationMs: 70_000,
    task: "optional",
    handler: async (ctx, input) => ({ snapshot: await saveSnapshot(await onBox(rt, ctx, input.boxId, true), input, ctx.signal) }),
  });
