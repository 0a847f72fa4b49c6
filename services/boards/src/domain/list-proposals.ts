/** list_board_proposals: newest first, 50 a page; the cursor continues only the same board's list. */
import { Prisma } from "../db/generated/client.js";
import { reachBoard } from "./access.js";
import { session, type BoardsContext } from "./context.js";
import type { PagedBoardRef } from "./inputs.js";
import { proposalPage } from "./proposal-rows.js";
import type { ListProposalsResult } from "./views.js";

export function listBoardProposals(ctx: BoardsContext, input: PagedBoardRef): Promise<ListProposalsResult> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, input.boardId, "read");
    const list = `proposals:${input.boardId.toLowerCase()}`;
    const { proposals, nextCursor } = await proposalPage(tx, list, input.cursor, Prisma.sql`p.board_id = ${input.boardId}::uuid`);
    return nextCursor ? { proposals, nextCursor } : { proposals };
  });
}
