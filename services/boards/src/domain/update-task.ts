/**
 * update_task (and the app's task edit). Omitted fields keep their value; description "" removes it;
 * tagIds replaces the whole list ([] removes all). Only the app may remove the due date (dueDate: null)
 * or change the assignee: the MCP schema has no way to say either.
 */
import { requireMember } from "./access.js";
import { changeTask, type TaskRef } from "./change-task.js";
import type { BoardsContext } from "./context.js";
import { replaceTaskTags } from "./task-tags.js";
import type { TaskResult } from "./views.js";

export interface TaskEdit extends TaskRef {
  title?: string;
  description?: string;
  dueDate?: string | null;
  tagIds?: string[];
  assigneeId?: string | null;
}

export function updateTask(ctx: BoardsContext, input: TaskEdit): Promise<TaskResult> {
  return changeTask(ctx, {
    operation: "update_task",
    input,
    apply: async (tx, task) => {
      if (input.assigneeId) await requireMember(tx, input.boardId, input.assigneeId, "assigneeId");
      const title = input.title ?? task.title;
      const description = input.description === undefined ? task.description : input.description || null;
      const dueDate = input.dueDate === undefined ? task.due_date : input.dueDate;
      const assignee = input.assigneeId === undefined ? task.assignee_id : input.assigneeId;
      await tx.$executeRaw`
        UPDATE tasks SET title = ${title}, description = ${description}, due_date = ${dueDate}::date, assignee_id = ${assignee}
         WHERE id = ${task.id}::uuid`;
      if (input.tagIds !== undefined) await replaceTaskTags(tx, ctx, input.boardId, task.id, input.tagIds);
      const fields = (["title", "description", "dueDate", "tagIds", "assigneeId"] as const).filter((field) => input[field] !== undefined);
      return { eventType: "task_updated", metadata: { fields } };
    },
  });
}
