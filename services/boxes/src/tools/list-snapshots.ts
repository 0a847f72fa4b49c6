import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { listSnapshots } from "../domain/list-snapshots.js";
import { listSnapshotsInput, listSnapshotsResult } from "../domain/schemas/disk.js";
import { boxesContext, readsOnly } from "./context.js";

export const listSnapshotsTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "list_snapshots",
    title: "List snapshots",
    description:
      "Lists the workspace's snapshots (newest first), optionally only those of one box (id or name), with state (creating, ready, failed) and size. " +
      "Returns { snapshots, nextCursor }; pass nextCursor as cursor for the next page. create_box snapshotId starts a box from a ready one.",
    input: listSnapshotsInput,
    output: listSnapshotsResult,
    annotations: readsOnly,
    scope: "images:read",
    profile: "core",
    handler: (ctx, input) => listSnapshots(boxesContext(rt, ctx), input),
  });
