/**
 * get_task_activity: the whole board's history, newest first, 25 a page. Events are kept 90 days;
 * coverageStart says from when the history is complete (the later of the board's creation and 90 days
 * ago), and older events are never shown even before the expiry job has removed them.
 */
import { z } from "zod";
import { Prisma } from "../db/generated/client.js";
import { reachBoard } from "./access.js";
import { session, type BoardsContext } from "./context.js";
import { decodeCursor, encodeCursor } from "./cursor.js";
import type { PagedBoardRef } from "./inputs.js";
import { limits, retention } from "./limits.js";
import { floorToSecond, timestamp } from "./time.js";
import type { ActivityResult, EventView } from "./views.js";

const eventKey = z.object({ t: z.iso.datetime(), i: z.guid() });

interface EventRow extends Omit<EventView, "created_at"> {
  created_at: Date;
}

export function getTaskActivity(ctx: BoardsContext, input: PagedBoardRef): Promise<ActivityResult> {
  return session(ctx, async (tx) => {
    const board = await reachBoard(tx, input.boardId, "read");
    const horizon = floorToSecond(new Date(Date.now() - retention.activityMs));
    const coverageStart = floorToSecond(board.createdAt) > horizon ? floorToSecond(board.createdAt) : horizon;
    const list = `activity:${input.boardId.toLowerCase()}`;
    const before = input.cursor ? decodeCursor(input.cursor, list, eventKey) : undefined;
    const rows = await tx.$queryRaw<EventRow[]>`
      SELECT id::text, board_id::text, actor_id, event_type, entity_type, entity_id, metadata, created_at
        FROM activity_events
       WHERE board_id = ${input.boardId}::uuid AND created_at >= ${coverageStart}
         ${before ? Prisma.sql`AND (created_at, id) < (${new Date(before.t)}, ${before.i}::uuid)` : Prisma.empty}
       ORDER BY created_at DESC, id DESC
       LIMIT ${limits.pageSize + 1}`;
    const page = rows.slice(0, limits.pageSize);
    const last = page.at(-1);
    return {
      events: page.map((row) => ({ ...row, created_at: timestamp(row.created_at) })),
      nextCursor: rows.length > limits.pageSize && last ? encodeCursor(list, { t: last.created_at.toISOString(), i: last.id }) : null,
      coverageStart: timestamp(coverageStart),
    };
  });
}
