/** list_board_proposals: newest first, 50 a page; the cursor continues only the same board's list. */
import { z } from "zod";
import { Prisma } from "../db/generated/client.js";
import { reachBoard } from "./access.js";
import { session, type BoardsContext } from "./context.js";
import { decodeCursor, encodeCursor } from "./cursor.js";
import type { PagedBoardRef } from "./inputs.js";
import { limits } from "./limits.js";
import { proposalAlive, proposalColumns, withSuggestions, type ProposalRow } from "./proposal-rows.js";
import type { ListProposalsResult } from "./views.js";

const proposalKey = z.object({ t: z.iso.datetime(), i: z.guid() });

export function listBoardProposals(ctx: BoardsContext, input: PagedBoardRef): Promise<ListProposalsResult> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, input.boardId, "read");
    const list = `proposals:${input.boardId.toLowerCase()}`;
    const before = input.cursor ? decodeCursor(input.cursor, list, proposalKey) : undefined;
    const rows = await tx.$queryRaw<ProposalRow[]>`
      SELECT ${proposalColumns} FROM proposals p
       WHERE p.board_id = ${input.boardId}::uuid AND ${proposalAlive}
         ${before ? Prisma.sql`AND (p.created_at, p.id) < (${new Date(before.t)}, ${before.i}::uuid)` : Prisma.empty}
       ORDER BY p.created_at DESC, p.id DESC
       LIMIT ${limits.proposalPageSize + 1}`;
    const page = rows.slice(0, limits.proposalPageSize);
    const last = page.at(-1);
    const proposals = await withSuggestions(tx, page);
    return rows.length > limits.proposalPageSize && last
      ? { proposals, nextCursor: encodeCursor(list, { t: last.created_at.toISOString(), i: last.id }) }
      : { proposals };
  });
}
