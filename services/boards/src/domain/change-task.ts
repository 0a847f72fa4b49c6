/**
 * Every change of an existing task goes through here, in one transaction: board reachable with a
 * writing role, requestId idempotency, the task row locked, archived refused, expectedVersion checked
 * (VERSION_CONFLICT with the current task), then the change itself, version + 1 and one activity event.
 */
import type { BoardsTx } from "../db/client.js";
import { lockBoardOrder, reachBoard } from "./access.js";
import { recordEvent, type ActivityEntry } from "./activity.js";
import { session, type BoardsContext } from "./context.js";
import { taskArchived, versionConflict, wrongStatus } from "./errors.js";
import { idempotent } from "./idempotency.js";
import { lockTask, taskRecord, toTaskRecord, type TaskRow } from "./task-rows.js";
import type { TaskResult } from "./views.js";

export interface TaskRef {
  requestId: string;
  boardId: string;
  taskId: string;
  expectedVersion: number;
}

export interface TaskChange<I extends TaskRef> {
  operation: string;
  input: I;
  /** Takes the board's ordering lock first: the change hands out a position. */
  reorders?: boolean;
  /** Archived tasks are refused, except by the app's restore, which needs one. */
  archived?: "refuse" | "require";
  /** Applies the change (not the version) and names the event to record. */
  apply: (tx: BoardsTx, task: TaskRow) => Promise<Omit<ActivityEntry, "boardId" | "entityType" | "entityId">>;
}

export function changeTask<I extends TaskRef>(ctx: BoardsContext, change: TaskChange<I>): Promise<TaskResult> {
  const { requestId, ...args } = change.input;
  const { boardId, taskId, expectedVersion } = change.input;
  return session(ctx, async (tx) => {
    await reachBoard(tx, boardId, "write");
    return idempotent(tx, ctx, { requestId, boardId, operation: change.operation, args }, async () => {
      if (change.reorders) await lockBoardOrder(tx, boardId);
      const task = await lockTask(tx, boardId, taskId);
      const archived = task.archived_at !== null;
      if ((change.archived ?? "refuse") === "refuse" && archived) throw taskArchived(task.id);
      if (change.archived === "require" && !archived) throw wrongStatus(task.id, "not archived", "archived");
      if (task.version !== expectedVersion) throw versionConflict(toTaskRecord(task), expectedVersion, task.version);
      const event = await change.apply(tx, task);
      await tx.$executeRaw`UPDATE tasks SET version = version + 1, updated_at = now() WHERE id = ${task.id}::uuid`;
      await recordEvent(tx, ctx, { ...event, boardId, entityType: "task", entityId: task.id });
      return { task: await taskRecord(tx, boardId, task.id) };
    });
  });
}

/** For transitions that need a given status. */
export function requireStatus(task: TaskRow, allowed: TaskRow["status"][]): void {
  if (!allowed.includes(task.status)) throw wrongStatus(task.id, task.status, allowed.join(" or "));
}
