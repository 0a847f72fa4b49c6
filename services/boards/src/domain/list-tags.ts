import type { BoardsTx } from "../db/client.js";
import { reachBoard } from "./access.js";
import { session, type BoardsContext } from "./context.js";
import type { TagRecord } from "./views.js";

/**
 * The board's tags in alphabetical order (case-insensitive), the ids create_task and update_task accept.
 * Each carries its version for the app; the tool's output schema leaves it out: the tool's shape is { id, name, color } (docs/boards.md#tools).
 */
export function listBoardTags(ctx: BoardsContext, boardId: string): Promise<{ tags: TagRecord[] }> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, boardId, "read");
    return { tags: await readTags(tx, boardId) };
  });
}

function readTags(tx: BoardsTx, boardId: string): Promise<TagRecord[]> {
  return tx.$queryRaw<TagRecord[]>`
    SELECT id::text, name, color, version FROM tags WHERE board_id = ${boardId}::uuid ORDER BY lower(name), name, id`;
}
