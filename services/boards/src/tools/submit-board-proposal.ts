import { defineTool } from "@bancada/service-kit";
import type { BoardsDb } from "../db/client.js";
import { submitProposalInput } from "../domain/inputs.js";
import { submitProposal } from "../domain/submit-proposal.js";
import { proposalResult } from "../domain/views.js";
import { toolContext, write } from "./context.js";

export const submitBoardProposalTool = (db: BoardsDb) =>
  defineTool({
    name: "submit_board_proposal",
    title: "Submit a proposal for human review",
    description:
      "Sends a proposal for human review without changing any task: an optional summary (up to 2,000 characters) and up to 20 suggestions " +
      "{ taskId, version (the task's version you read), quadrant (technical id), reason (up to 500 characters) }; send at least a summary or one suggestion. " +
      "Owners and editors apply or reject each suggestion in the app; a suggestion whose version is no longer current becomes obsolete. " +
      "Text is stored and shown as text. The same requestId with the same content returns the same proposal.",
    input: submitProposalInput,
    output: proposalResult,
    annotations: write,
    scope: "boards:write",
    profile: "core",
    handler: (ctx, input) => submitProposal(toolContext(db, ctx), input),
  });
