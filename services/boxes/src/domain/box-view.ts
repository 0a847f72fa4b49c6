import type { BoxRow } from "../db/client.js";
import type { Enforcement } from "../driver/box-driver.js";
import type { BoxView } from "./schemas/box.js";

export interface Operation {
  kind: OperationKind;
  startedAt: string;
  /** The service instance running it. */
  instance: string;
}
export type OperationKind = "create" | "suspend" | "resume" | "start" | "delete";

export function operationOf(row: Pick<BoxRow, "operation">): Operation | null {
  return (row.operation as Operation | null) ?? null;
}

export function toBoxView(row: BoxRow): BoxView {
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
    // Idle auto-suspend, maxRunMinutes and deleteAfterSeconds need the reapers of a later version: recorded, not enforced.
    enforcement: {
      ...(row.enforcement as unknown as Enforcement),
      user: (row.enforcement as { user?: string }).user ?? null,
      autoSuspend: null,
      maxRun: null,
      deleteAfter: null,
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
