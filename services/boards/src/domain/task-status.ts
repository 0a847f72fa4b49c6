/**
 * Status transitions: complete and discard an active task; reopen a completed or discarded one into a
 * quadrant (its own by default), at the end. The app also archives and restores tasks.
 */
import { changeTask, requireStatus } from "./change-task.js";
import type { BoardsContext } from "./context.js";
import type { ReopenTaskInput, TaskTransitionInput } from "./inputs.js";
import { endOfQuadrant } from "./positions.js";
import type { TaskResult } from "./views.js";

export function completeTask(ctx: BoardsContext, input: TaskTransitionInput): Promise<TaskResult> {
  return finish(ctx, input, "completed");
}

export function discardTask(ctx: BoardsContext, input: TaskTransitionInput): Promise<TaskResult> {
  return finish(ctx, input, "discarded");
}

function finish(ctx: BoardsContext, input: TaskTransitionInput, status: "completed" | "discarded"): Promise<TaskResult> {
  return changeTask(ctx, {
    operation: status === "completed" ? "complete_task" : "discard_task",
    input,
    apply: async (tx, task) => {
      requireStatus(task, ["active"]);
      await tx.$executeRaw`UPDATE tasks SET status = ${status}::task_status WHERE id = ${task.id}::uuid`;
      return { eventType: status === "completed" ? "task_completed" : "task_discarded", metadata: { quadrant: task.quadrant } };
    },
  });
}

export function reopenTask(ctx: BoardsContext, input: ReopenTaskInput): Promise<TaskResult> {
  return changeTask(ctx, {
    operation: "reopen_task",
    input,
    reorders: true,
    apply: async (tx, task) => {
      requireStatus(task, ["completed", "discarded"]);
      const quadrant = input.quadrant ?? task.quadrant;
      const position = await endOfQuadrant(tx, input.boardId, quadrant);
      await tx.$executeRaw`
        UPDATE tasks SET status = 'active', quadrant = ${quadrant}::quadrant, position = ${position} WHERE id = ${task.id}::uuid`;
      return { eventType: "task_reopened", metadata: { from_status: task.status, to_quadrant: quadrant } };
    },
  });
}

/** The app's archive: the task disappears from lists and refuses changes until restored. */
export function archiveTask(ctx: BoardsContext, input: TaskTransitionInput): Promise<TaskResult> {
  return changeTask(ctx, {
    operation: "archive_task",
    input,
    apply: async (tx, task) => {
      await tx.$executeRaw`UPDATE tasks SET archived_at = now() WHERE id = ${task.id}::uuid`;
      return { eventType: "task_archived" };
    },
  });
}

export function restoreTask(ctx: BoardsContext, input: TaskTransitionInput): Promise<TaskResult> {
  return changeTask(ctx, {
    operation: "restore_task",
    input,
    archived: "require",
    apply: async (tx, task) => {
      await tx.$executeRaw`UPDATE tasks SET archived_at = NULL WHERE id = ${task.id}::uuid`;
      return { eventType: "task_restored" };
    },
  });
}
