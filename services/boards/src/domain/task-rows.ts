/** Reading tasks in the tools' shape (tags included, alphabetical; docs/boards.md#tools) and locking one for a write. */
import { Prisma } from "../db/generated/client.js";
import type { BoardsTx } from "../db/client.js";
import { taskNotFound } from "./errors.js";
import type { QuadrantId } from "./quadrants.js";
import { optionalTimestamp, timestamp } from "./time.js";
import type { TagView, TaskRecord, TaskStatus } from "./views.js";

export interface TaskRow {
  id: string;
  board_id: string;
  task_number: number;
  title: string;
  description: string | null;
  quadrant: QuadrantId;
  position: string;
  status: TaskStatus;
  assignee_id: string | null;
  due_date: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
  tags: TagView[];
}

/** The select list of a task row; `t` is the tasks table. */
export const taskColumns = Prisma.sql`
  t.id::text, t.board_id::text, t.task_number, t.title, t.description, t.quadrant::text AS quadrant, t.position,
  t.status::text AS status, t.assignee_id, t.due_date::text AS due_date, t.version, t.created_at, t.updated_at, t.archived_at,
  coalesce((SELECT json_agg(json_build_object('id', g.id, 'name', g.name, 'color', g.color) ORDER BY lower(g.name), g.name, g.id)
              FROM task_tags tt JOIN tags g ON g.id = tt.tag_id
             WHERE tt.task_id = t.id), '[]'::json) AS tags`;

export function toTaskRecord(row: TaskRow): TaskRecord {
  return {
    id: row.id,
    board_id: row.board_id,
    task_number: row.task_number,
    title: row.title,
    description: row.description,
    quadrant: row.quadrant,
    status: row.status,
    assignee_id: row.assignee_id,
    due_date: row.due_date,
    tags: row.tags,
    version: row.version,
    created_at: timestamp(row.created_at),
    updated_at: timestamp(row.updated_at),
    archived_at: optionalTimestamp(row.archived_at),
  };
}

async function readTask(tx: BoardsTx, boardId: string, taskId: string): Promise<TaskRow | undefined> {
  const [row] = await tx.$queryRaw<
    TaskRow[]
  >`SELECT ${taskColumns} FROM tasks t WHERE t.id = ${taskId}::uuid AND t.board_id = ${boardId}::uuid`;
  return row;
}

export async function taskRecord(tx: BoardsTx, boardId: string, taskId: string): Promise<TaskRecord> {
  const row = await readTask(tx, boardId, taskId);
  if (!row) throw taskNotFound(taskId);
  return toTaskRecord(row);
}

/** Reads the task and locks its row for the rest of the transaction, so version checks and updates cannot interleave. */
export async function lockTask(tx: BoardsTx, boardId: string, taskId: string): Promise<TaskRow> {
  const [row] = await tx.$queryRaw<TaskRow[]>`
    SELECT ${taskColumns} FROM tasks t WHERE t.id = ${taskId}::uuid AND t.board_id = ${boardId}::uuid FOR UPDATE OF t`;
  if (!row) throw taskNotFound(taskId);
  return row;
}
