/** move_task: an active task to a quadrant, just before `beforeId` or at the end. */
import { changeTask, requireStatus } from "./change-task.js";
import type { BoardsContext } from "./context.js";
import type { MoveTaskInput } from "./inputs.js";
import { beforeTask, endOfQuadrant } from "./positions.js";
import type { TaskResult } from "./views.js";

export function moveTask(ctx: BoardsContext, input: MoveTaskInput): Promise<TaskResult> {
  return changeTask(ctx, {
    operation: "move_task",
    input,
    reorders: true,
    apply: async (tx, task) => {
      requireStatus(task, ["active"]);
      const position = input.beforeId
        ? await beforeTask(tx, input.boardId, input.quadrant, input.beforeId, task.id)
        : await endOfQuadrant(tx, input.boardId, input.quadrant);
      await tx.$executeRaw`
        UPDATE tasks SET quadrant = ${input.quadrant}::quadrant, position = ${position} WHERE id = ${task.id}::uuid`;
      return { eventType: "task_moved", metadata: { from_quadrant: task.quadrant, to_quadrant: input.quadrant } };
    },
  });
}
