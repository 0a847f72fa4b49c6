import type { BoardsContext } from "./context.js";
import { session } from "./context.js";
import { readBoards } from "./board-rows.js";
import type { BoardRecord } from "./views.js";

/** The boards the caller reaches: member boards within the key's allowedBoardIds, archived ones included. */
export function listBoards(ctx: BoardsContext): Promise<{ boards: BoardRecord[] }> {
  return session(ctx, async (tx) => ({ boards: await readBoards(tx) }));
}
