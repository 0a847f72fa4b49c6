/**
 * create_task: the new task's id is the requestId (docs/boards.md#write-rules), so a repeat is recognised even across the
 * idempotency record's expiry: an id already taken by another task of the account is
 * IDEMPOTENCY_CONFLICT. Task ids are unique per account, so the same UUID in another account is simply
 * another task: it neither blocks this create nor tells the caller it exists. The task gets the
 * board's next task number and goes to the end of its quadrant.
 */
import type { BoardsTx } from "../db/client.js";
import { lockBoardOrder, reachBoard, requireMember } from "./access.js";
import { recordEvent } from "./activity.js";
import { session, type BoardsContext } from "./context.js";
import { idempotencyConflict } from "./errors.js";
import { idempotent } from "./idempotency.js";
import type { CreateTaskInput } from "./inputs.js";
import { endOfQuadrant } from "./positions.js";
import { replaceTaskTags } from "./task-tags.js";
import { taskRecord } from "./task-rows.js";
import type { TaskResult } from "./views.js";

/** REST may also set the assignee when creating. */
export type NewTask = CreateTaskInput & { assigneeId?: string | null };

export function createTask(ctx: BoardsContext, input: NewTask): Promise<TaskResult> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, input.boardId, "write");
    const { requestId, ...args } = input;
    return idempotent(tx, ctx, { requestId, boardId: input.boardId, operation: "create_task", args }, () => insertTask(tx, ctx, input));
  });
}

async function insertTask(tx: BoardsTx, ctx: BoardsContext, input: NewTask): Promise<TaskResult> {
  if (input.assigneeId) await requireMember(tx, input.boardId, input.assigneeId, "assigneeId");
  await lockBoardOrder(tx, input.boardId);
  const position = await endOfQuadrant(tx, input.boardId, input.quadrant);
  const inserted = await tx.$executeRaw`
    INSERT INTO tasks (account_id, id, board_id, task_number, title, description, quadrant, position, status, assignee_id, due_date,
                       version, created_by, created_at, updated_at)
    SELECT ${ctx.accountId}, ${input.requestId}::uuid, ${input.boardId}::uuid, coalesce(max(task_number), 0) + 1, ${input.title},
           ${input.description || null}, ${input.quadrant}::quadrant, ${position}, 'active', ${input.assigneeId ?? null},
           ${input.dueDate ?? null}::date, 1, ${ctx.personId}, now(), now()
      FROM tasks WHERE board_id = ${input.boardId}::uuid
    ON CONFLICT (account_id, id) DO NOTHING`;
  // The id is taken in this account (maybe on a board this caller cannot see: the primary key still answers).
  if (inserted === 0) throw idempotencyConflict(input.requestId, "arguments (a task with this id exists)");
  await replaceTaskTags(tx, ctx, input.boardId, input.requestId, input.tagIds ?? []);
  const task = await taskRecord(tx, input.boardId, input.requestId);
  await recordEvent(tx, ctx, {
    boardId: input.boardId,
    eventType: "task_created",
    entityType: "task",
    entityId: task.id,
    metadata: { task_number: task.task_number, quadrant: task.quadrant },
  });
  return { task };
}
