import { defineTool } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { pagedBoardRef } from "../domain/inputs.js";
import { listBoardProposals } from "../domain/list-proposals.js";
import { listProposalsResult } from "../domain/views.js";
import { readOnly, toolContext } from "./context.js";

export const listBoardProposalsTool = (db: BoardsDb) =>
  defineTool({
    name: "list_board_proposals",
    title: "List proposals",
    description:
      "Lists the board's proposals, newest first, 50 per page, with the human review outcome of each suggestion " +
      "(pending, applied, rejected or obsolete). When there is another page, the result carries nextCursor (valid for this board only).",
    input: pagedBoardRef,
    output: listProposalsResult,
    annotations: readOnly,
    scope: "boards:read",
    profile: "full",
    handler: (ctx, input) => listBoardProposals(toolContext(db, ctx), input),
  });
