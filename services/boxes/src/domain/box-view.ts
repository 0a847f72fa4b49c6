import type { BoxRow } from "../db/client.js";
import type { Enforcement } from "../driver/box-driver.js";
import type { BoxView } from "./schemas/box.js";

export interface Operation {
  kind: OperationKind;
  startedAt: string;
  /** The service instance running it. */
  instance: string;
  /** A suspend by the idle reaper (reaper.ts) freezes the box into `sleeping`, not `suspended`. */
  frozenState?: "sleeping";
  /** A move off a drained node (move-box.ts): the node it goes to. */
  to?: string;
}
export type OperationKind = "create" | "suspend" | "resume" | "start" | "delete" | "fork" | "snapshot" | "move";

export function operationOf(row: Pick<BoxRow, "operation">): Operation | null {
  return (row.operation as Operation | null) ?? null;
}

/** The box's row as answered, without what is computed per answer (its cost: box-answer.ts). */
export function toBoxView(row: BoxRow): Omit<BoxView, "costCentavos"> {
  const operation = operationOf(row);
  return {
    id: row.id,
    name: row.name,
    state: row.state,
    stateReason: row.stateReason,
    operation: operation ? { kind: operation.kind, startedAt: operation.startedAt } : null,
    template: row.template,
    templateVersion: row.templateVersion,
    snapshotId: row.snapshotId,
    forkedFrom: row.forkedFrom,
    vcpus: row.vcpus,
    memMiB: row.memMiB,
    dataGiB: row.dataGiB,
    autoSuspendSeconds: row.autoSuspendSeconds,
    maxRunMinutes: row.maxRunMinutes,
    deleteAfterSeconds: row.deleteAfterSeconds,
    metadata: row.metadata as Record<string, string>,
    secrets: row.secrets,
    setupJobId: row.setupJobId,
    taskJobId: row.taskJobId,
    driver: row.driver,
    node: row.node,
    enforcement: {
      ...(row.enforcement as unknown as Enforcement),
      user: (row.enforcement as { user?: string }).user ?? null,
      ...policyEnforcement(row),
    },
    sshCommand: null,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    createdByAgent: row.createdByAgent,
    updatedAt: row.updatedAt.toISOString(),
    stateChangedAt: row.stateChangedAt.toISOString(),
    deletedAt: row.deletedAt?.toISOString() ?? null,
  };
}

/** How the reapers (reaper.ts) act on the box's policies, in words. */
function policyEnforcement(row: Pick<BoxRow, "autoSuspendSeconds" | "maxRunMinutes" | "deleteAfterSeconds">) {
  return {
    autoSuspend:
      row.autoSuspendSeconds === 0
        ? "never sleeps (autoSuspendSeconds 0)"
        : `sleeps (state sleeping, processes frozen) after ${row.autoSuspendSeconds} s with no exec, job or file call while no job runs; exec, start_job and the file tools wake it`,
    maxRun:
      row.maxRunMinutes === -1
        ? "unlimited (maxRunMinutes -1)"
        : `paused (state suspended, processes kept) after ${row.maxRunMinutes} minutes running since it last started, resumed or woke; only resume_box wakes it`,
    deleteAfter:
      row.deleteAfterSeconds === null
        ? "never deleted automatically (no deleteAfterSeconds); delete_box deletes it"
        : `deleted ${row.deleteAfterSeconds} s after it was created, in any state, as delete_box does`,
  };
}

/** The state a box frozen by `row`'s operation is in: `sleeping` for the idle reaper's, `suspended` otherwise. */
export const frozenStateOf = (row: Pick<BoxRow, "operation">): "sleeping" | "suspended" => operationOf(row)?.frozenState ?? "suspended";
