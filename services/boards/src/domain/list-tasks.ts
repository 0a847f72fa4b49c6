/**
 * list_tasks: 25 tasks a page in board order (quadrant, then place in it: the `position` key), archived
 * tasks left out (the app lists them on their own with `archived`). The cursor is the position key of
 * the last task, bound to the board and the filters. Since a move changes only the moved task's key, a
 * client paging while others move tasks never loops and never misses a task that did not move (a moved
 * one may show up twice or not at all, in its new place). Every bound on `position` is a text
 * comparison, which row-level security lets the index serve.
 */
import { z } from "zod";
import { Prisma } from "../db/generated/client.js";
import { reachBoard } from "./access.js";
import { session, type BoardsContext } from "./context.js";
import { decodeCursor, encodeCursor, listKey } from "./cursor.js";
import type { RestListTasksInput } from "./inputs.js";
import { limits } from "./limits.js";
import { quadrantRange } from "./positions.js";
import { taskColumns, toTaskRecord, type TaskRow } from "./task-rows.js";
import type { ListTasksResult } from "./views.js";

const taskKey = z.object({
  p: z
    .string()
    .regex(/^[0-4][0-9A-Za-z]+$/)
    .max(300),
});

export function listTasks(ctx: BoardsContext, input: RestListTasksInput): Promise<ListTasksResult> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, input.boardId, "read");
    const tagIds = input.tagIds?.length ? [...input.tagIds].map((id) => id.toLowerCase()).sort() : undefined;
    const archived = input.archived === true;
    const list = `tasks:${listKey([input.boardId.toLowerCase(), input.quadrant ?? null, input.status ?? null, tagIds ?? null, archived])}`;
    const after = input.cursor ? decodeCursor(input.cursor, list, taskKey) : undefined;
    const filters = [
      Prisma.sql`t.board_id = ${input.boardId}::uuid`,
      archived ? Prisma.sql`t.archived_at IS NOT NULL` : Prisma.sql`t.archived_at IS NULL`,
    ];
    if (input.quadrant) {
      const { low, high } = quadrantRange(input.quadrant);
      filters.push(Prisma.sql`t.position >= ${low} AND t.position < ${high}`);
    }
    if (input.status) filters.push(Prisma.sql`t.status = ${input.status}::task_status`);
    if (tagIds) {
      filters.push(Prisma.sql`EXISTS (SELECT 1 FROM task_tags tt WHERE tt.task_id = t.id AND tt.tag_id = ANY(${tagIds}::uuid[]))`);
    }
    if (after) filters.push(Prisma.sql`t.position > ${after.p}`);
    const rows = await tx.$queryRaw<TaskRow[]>`
      SELECT ${taskColumns} FROM tasks t
       WHERE ${Prisma.join(filters, " AND ")}
       ORDER BY t.position
       LIMIT ${limits.pageSize + 1}`;
    const page = rows.slice(0, limits.pageSize);
    const last = page.at(-1);
    return {
      tasks: page.map(toTaskRecord),
      nextCursor: rows.length > limits.pageSize && last ? encodeCursor(list, { p: last.position }) : null,
    };
  });
}
