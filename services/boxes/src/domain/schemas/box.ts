/** Seed 001: list_boxes, get_box, create_box, delete_box, suspend_box, resume_box and the box as shown. */
import { z } from "zod";
import { limits } from "../limits.js";
import { argv, boxNamePattern, boxRef, cmd, cwd, env, idempotencyKey, isoDate, noNul, oneCommand, waitFlag } from "./common.js";

const boxStates = ["creating", "running", "sleeping", "suspended", "stopped", "deleting", "deleted"] as const;
const boxState = z.enum(boxStates);
export type BoxState = z.infer<typeof boxState>;

export const metadata = z
  .record(
    z
      .string()
      .min(1)
      .max(limits.metadataKeyMax)
      .regex(/^[A-Za-z0-9_.:-]+$/, "metadata keys are letters, digits and _ . : -"),
    noNul(z.string().max(limits.metadataValueMax)),
  )
  .refine((value) => Object.keys(value).length <= limits.metadataPairs, { message: `at most ${limits.metadataPairs} pairs` });

export const listBoxesInput = z.strictObject({
  state: z.array(boxState).min(1).max(boxStates.length).optional().describe("Only boxes in these states."),
  metadata: metadata.optional().describe('Only boxes that have all these metadata pairs (e.g. {"kind": "render"}).'),
  includeDeleted: z.boolean().default(false).describe("Include deleted boxes."),
  limit: z.number().int().min(1).max(limits.pageMax).default(limits.pageDefault).describe("Items per page (1–100, default 20)."),
  cursor: z.string().min(1).max(200).optional().describe("nextCursor of the previous page."),
});
export type ListBoxesInput = z.infer<typeof listBoxesInput>;

export const boxRefInput = z.strictObject({ boxId: boxRef });

const commandFields = { cmd: cmd.optional(), argv: argv.optional(), cwd: cwd.optional(), env: env.optional() };

export const setupInput = z
  .strictObject({
    ...commandFields,
    timeoutSeconds: z
      .number()
      .int()
      .min(1)
      .max(limits.execTimeoutMax)
      .default(limits.setupTimeoutDefault)
      .describe("Deadline of the setup (1–600 s, default 300)."),
  })
  .superRefine(oneCommand)
  .describe(
    "A command run once when the box is created, before it counts as running (e.g. installing dependencies). Its output is the job named 'setup'.",
  );

export const taskInput = z
  .strictObject({ name: noNul(z.string().min(1).max(limits.jobNameMax)).optional(), ...commandFields })
  .superRefine(oneCommand)
  .describe("The box's main task: started as a background job once the box runs (after setup). Follow it with job_logs / job_wait.");

export const createBoxInput = z
  .strictObject({
    name: z
      .string()
      .regex(boxNamePattern, "lowercase letters, digits and hyphens, 1 to 40")
      .optional()
      .describe("Name (lowercase letters, digits and hyphen; up to 40). Without a name the server picks one."),
    template: z.string().min(1).max(64).optional().describe("Template (default: the workspace's)."),
    templateVersion: z.string().min(1).max(64).optional().describe("Template version (default: the current one)."),
    snapshotId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe(
        "Start from this snapshot's disk (list_snapshots; save_snapshot makes one). The box's disk is at least the snapshot's dataGiB.",
      ),
    vcpus: z.literal(limits.vcpus).default(2).describe("Cores: 2, 4, 8, 16 or 32 (the plan caps it). Default 2."),
    memMiB: z
      .literal(limits.memMiB)
      .default(4096)
      .describe("Memory in MiB: 4096, 8192, 16384, 32768 or 65536 (at most 2048 × vcpus). Default 4096."),
    dataGiB: z
      .number()
      .int()
      .min(limits.dataGiBMin)
      .max(limits.dataGiBMax)
      .default(limits.dataGiBMin)
      .describe("Disk in GiB (20–500, default 20)."),
    autoSuspendSeconds: z
      .number()
      .int()
      .min(0)
      .max(limits.autoSuspendMax)
      .refine((value) => value === 0 || (value >= limits.autoSuspendMin && value <= limits.autoSuspendMax && value % 60 === 0), {
        message: "must be 0 (never; paid plans) or 300–1800 in whole minutes",
      })
      .default(limits.autoSuspendMin)
      .describe(
        "Sleep after this many idle seconds: 0 (never, paid plans only) or 300–1800 in whole minutes. Default 300. A running box with no exec, job or file call for that long, and no job running, goes to sleeping; exec, start_job and the file tools wake it.",
      ),
    maxRunMinutes: z
      .number()
      .int()
      .min(-1)
      .max(limits.maxRunMinutesMax)
      .refine((value) => value === -1 || (value >= 1 && value <= limits.maxRunMinutesMax), {
        message: "must be -1 (unlimited; paid plans) or 1–43200",
      })
      .default(240)
      .describe(
        "Pause after running this many minutes (-1 unlimited, paid plans only). Default 240. Counted from when the box last entered running; then it is suspended with its processes kept, and only resume_box wakes it.",
      ),
    deleteAfterSeconds: z
      .number()
      .int()
      .min(limits.deleteAfterMin)
      .max(limits.deleteAfterMax)
      .optional()
      .describe(
        "Delete itself after this many seconds (60–86400). Counted from creation, in any state; then the box is deleted as delete_box does.",
      ),
    metadata: metadata
      .default({})
      .describe(
        "Up to 32 text→text pairs. metadata.kind = task kind (recorded in the box's state history, for usage by kind once usage reports exist).",
      ),
    secrets: z
      .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "secret names are letters, digits and _"))
      .max(limits.secretsMax)
      .default([])
      .describe(
        "Names of workspace Secrets the box may use: each command in the box gets them as environment variables of those names (a call's own env wins). Unknown names answer not_found.",
      ),
    task: taskInput.optional(),
    setup: setupInput.optional(),
    idempotencyKey: idempotencyKey.optional(),
    wait: waitFlag("the box to be running (up to 120 s)"),
  })
  .superRefine((value, context) => {
    if (value.memMiB > limits.memPerVcpuMiB * value.vcpus) {
      context.addIssue({
        code: "custom",
        path: ["memMiB"],
        message: `at most 2048 × vcpus (${limits.memPerVcpuMiB * value.vcpus} MiB for ${value.vcpus} vCPUs)`,
      });
    }
  });
export type CreateBoxInput = z.infer<typeof createBoxInput>;

export const deleteBoxInput = z.strictObject({
  boxId: boxRef,
  confirm: z.boolean().optional().describe("Must be true: the box and its files are gone for good."),
  wait: waitFlag("the box to be deleted"),
});

export const powerInput = z.strictObject({ boxId: boxRef, wait: waitFlag("the operation to finish") });
export type PowerInput = z.infer<typeof powerInput>;

const operationView = z.object({ kind: z.string(), startedAt: isoDate });

export const boxView = z.object({
  id: z.string(),
  name: z.string(),
  state: boxState,
  stateReason: z.string().nullable(),
  operation: operationView
    .nullable()
    .describe(
      "The operation in progress (create, suspend, resume, start, delete, fork, snapshot, move: to another node, off a drained one), or null.",
    ),
  template: z.string(),
  templateVersion: z.string(),
  snapshotId: z.string().nullable().describe("The snapshot the box was made from (create_box snapshotId), or null."),
  forkedFrom: z.string().nullable().describe("The box this one is a fork_box copy of, or null."),
  vcpus: z.number().int(),
  memMiB: z.number().int(),
  dataGiB: z.number().int(),
  autoSuspendSeconds: z.number().int(),
  maxRunMinutes: z.number().int(),
  deleteAfterSeconds: z.number().int().nullable(),
  metadata: z.record(z.string(), z.string()),
  secrets: z.array(z.string()),
  setupJobId: z.string().nullable().describe("The job running create_box's setup (follow it with job_logs), or null."),
  taskJobId: z.string().nullable().describe("The job running create_box's task, or null."),
  driver: z.string(),
  node: z.string().describe("The node (machine) that runs the box: forks stay on it; its outage makes the box unavailable."),
  enforcement: z
    .object({
      cpu: z.string().nullable(),
      memory: z.string().nullable(),
      disk: z
        .string()
        .nullable()
        .describe("How dataGiB is held to (a write past it fails with ENOSPC); null: the disk has no size limit on this machine."),
      processes: z.object({ max: z.number().int(), via: z.string() }).nullable(),
      freeze: z.string(),
      network: z.string(),
      user: z
        .string()
        .nullable()
        .describe("Whom root in the box is on the host machine; null for boxes made before boxes had host users of their own."),
      autoSuspend: z.string().nullable().describe("How autoSuspendSeconds is acted on (idle sleep)."),
      maxRun: z.string().nullable().describe("How maxRunMinutes is acted on (the run limit)."),
      deleteAfter: z.string().nullable().describe("How deleteAfterSeconds is acted on (automatic deletion)."),
    })
    .describe("Which requested resources and policies are enforced for this box, and how (null: recorded and shown, not enforced)."),
  costCentavos: z.number().int().describe("What the box cost this month so far, in centavos (get_usage has the month's detail)."),
  sshCommand: z
    .string()
    .nullable()
    .describe(
      "The command that opens a shell in the box over SSH, with a public key the account registered (REST /v1/ssh-keys); null when SSH is off or the box is deleted.",
    ),
  createdAt: isoDate,
  createdBy: z.string(),
  createdByAgent: z.string(),
  updatedAt: isoDate,
  stateChangedAt: isoDate,
  deletedAt: isoDate.nullable(),
});
export type BoxView = z.infer<typeof boxView>;

export const boxResult = z.object({ box: boxView });
export const listBoxesResult = z.object({ boxes: z.array(boxView), nextCursor: z.string().nullable() });
export type ListBoxesResult = z.infer<typeof listBoxesResult>;
