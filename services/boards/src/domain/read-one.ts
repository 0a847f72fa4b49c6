/** Single reads for the app: one task (archived too) and one proposal. */
import { DomainError, ErrorCode } from "@bancada/contracts";
import { reachBoard } from "./access.js";
import { session, type BoardsContext } from "./context.js";
import { readProposal } from "./proposal-rows.js";
import { taskRecord } from "./task-rows.js";
import type { ProposalResult, TaskResult } from "./views.js";

export function getTask(ctx: BoardsContext, boardId: string, taskId: string): Promise<TaskResult> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, boardId, "read");
    return { task: await taskRecord(tx, boardId, taskId) };
  });
}

export function getProposal(ctx: BoardsContext, boardId: string, proposalId: string): Promise<ProposalResult> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, boardId, "read");
    const proposal = await readProposal(tx, boardId, proposalId);
    if (!proposal) throw new DomainError(ErrorCode.notFound, "Proposal not found in this board.", { proposalId });
    return { proposal };
  });
}
