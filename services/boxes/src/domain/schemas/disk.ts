/** fork_box, save_snapshot, list_snapshots and the snapshot as shown. */
import { z } from "zod";
import { limits } from "../limits.js";
import { boxNamePattern, boxRef, idempotencyKey, isoDate, noNul, waitFlag } from "./common.js";
import { boxView, metadata } from "./box.js";

export const forkBoxInput = z
  .strictObject({
    count: z
      .number()
      .int()
      .min(1)
      .max(limits.forkMax)
      .optional()
      .describe("How many copies (1–5, default 1; with names, as many as names)."),
    names: z
      .array(z.string().regex(boxNamePattern, "lowercase letters, digits and hyphens, 1 to 40"))
      .min(1)
      .max(limits.forkMax)
      .optional()
      .describe("Names of the copies (optional; one per copy, unique). Without names the server picks them."),
    metadata: metadata.optional().describe("Metadata of the copies: the source box's pairs with these on top (up to 32 pairs in all)."),
    boxId: boxRef,
    idempotencyKey: idempotencyKey.optional(),
    wait: waitFlag("the copies to be running (up to 120 s)"),
  })
  .superRefine((value, context) => {
    if (value.names && value.count !== undefined && value.names.length !== value.count)
      context.addIssue({
        code: "custom",
        path: ["names"],
        message: `give one name per copy: ${value.count} names for count ${value.count}`,
      });
    if (value.names && new Set(value.names).size !== value.names.length)
      context.addIssue({ code: "custom", path: ["names"], message: "the names must differ from each other" });
  })
  .transform(({ count, ...rest }) => ({ ...rest, count: count ?? rest.names?.length ?? 1 }));
export type ForkBoxInput = z.infer<typeof forkBoxInput>;

export const forkBoxResult = z.object({
  boxes: z.array(boxView).describe("The copies, in the order of names (state running once ready; creating while wait is false)."),
});
export type ForkBoxResult = z.infer<typeof forkBoxResult>;

const snapshotStates = ["creating", "ready", "failed", "deleted"] as const;

export const saveSnapshotInput = z.strictObject({
  name: noNul(z.string().min(1).max(limits.snapshotNameMax)).optional().describe("Name of the snapshot (optional, up to 100 characters)."),
  metadata: metadata.default({}).describe("Up to 32 text→text pairs."),
  boxId: boxRef,
  wait: waitFlag("the snapshot to be ready (up to 60 s)"),
});
export type SaveSnapshotInput = z.infer<typeof saveSnapshotInput>;

export const listSnapshotsInput = z.strictObject({
  boxId: boxRef.optional().describe("Only the snapshots of this box (id or name)."),
  limit: z.number().int().min(1).max(limits.pageMax).default(limits.pageDefault).describe("Items per page (1–100, default 20)."),
  cursor: z.string().min(1).max(200).optional().describe("nextCursor of the previous page."),
});
export type ListSnapshotsInput = z.infer<typeof listSnapshotsInput>;

const snapshotView = z.object({
  id: z.string(),
  name: z.string().nullable(),
  boxId: z.string().describe("The box whose disk was saved."),
  state: z
    .enum(snapshotStates)
    .describe(
      "creating (being saved), ready (create_box can start from it), failed (stateReason says why) or deleted (REST DELETE /v1/snapshots/:id).",
    ),
  stateReason: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  template: z.string(),
  templateVersion: z.string(),
  dataGiB: z.number().int().describe("The saved disk's size; a box made from it has at least this dataGiB."),
  sizeBytes: z.number().int().nullable().describe("Bytes the snapshot takes in storage (what the box had written), once ready."),
  copyMethod: z.string().nullable().describe("reflink (copy-on-write) or copy (a plain sparse copy), once ready."),
  durationMs: z.number().int().nullable().describe("How long saving took."),
  createdAt: isoDate,
  readyAt: isoDate.nullable(),
  deletedAt: isoDate.nullable(),
  createdBy: z.string(),
  createdByAgent: z.string(),
});
export type SnapshotView = z.infer<typeof snapshotView>;

export const snapshotResult = z.object({ snapshot: snapshotView });

/** The path of DELETE /v1/snapshots/:snapshotId; an unknown id is simply not found. */
export const snapshotIdParams = z.object({ snapshotId: z.string().min(1).max(100) });
export const listSnapshotsResult = z.object({ snapshots: z.array(snapshotView), nextCursor: z.string().nullable() });
export type ListSnapshotsResult = z.infer<typeof listSnapshotsResult>;
