import type { BoardsTx } from "../db/client.js";
import { reachBoard } from "./access.js";
import { session, type BoardsContext } from "./context.js";
import type { TagView } from "./views.js";

/** The board's tags in alphabetical order (case-insensitive), the ids create_task and update_task accept. */
export function listBoardTags(ctx: BoardsContext, boardId: string): Promise<{ tags: TagView[] }> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, boardId, "read");
    return { tags: await readTags(tx, boardId) };
  });
}

export function readTags(tx: BoardsTx, boardId: string): Promise<TagView[]> {
  return tx.$queryRaw<TagView[]>`
    SELECT id::text, name, color FROM tags WHERE board_id = ${boardId}::uuid ORDER BY lower(name), name, id`;
}
