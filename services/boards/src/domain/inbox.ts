/**
 * The reviewer's inbox (REST only): the open proposals of every board the caller may review — owner or editor of an
 * active board, within the key's allowlist (row-level security) — newest first, and the count of them per board.
 * A re-proposal turns an obsolete suggestion into a fresh proposal at its task's current version.
 */
import { z } from "zod";
import { DomainError, ErrorCode } from "@bancada/contracts";
import { Prisma } from "../db/generated/client.js";
import type { BoardsTx } from "../db/client.js";
import { lockBoardOrder, reachBoard } from "./access.js";
import { session, type BoardsContext } from "./context.js";
import { limits } from "./limits.js";
import { proposalAlive, proposalPage } from "./proposal-rows.js";
import type { QuadrantId } from "./quadrants.js";
import { insertProposal } from "./submit-proposal.js";
import type { InboxCounts, InboxPage, InboxTask, ProposalResult } from "./views.js";

export const inboxQuery = z.strictObject({
  cursor: z.string().min(1).max(limits.cursorMax).optional().describe("nextCursor of the previous page; omit for the first page."),
});

const inboxList = "inbox";

/** The boards a proposal is reviewed on: the caller is owner or editor, and the board is not archived. */
const reviewable = Prisma.sql`
  EXISTS (SELECT 1 FROM boards b
            JOIN board_members m ON m.account_id = b.account_id AND m.board_id = b.id AND m.person_id = current_setting('app.person_id', true)
           WHERE b.account_id = current_setting('app.account_id', true) AND b.id = p.board_id
             AND b.archived_at IS NULL AND m.role IN ('owner', 'editor'))`;

export function listInbox(ctx: BoardsContext, input: z.infer<typeof inboxQuery>): Promise<InboxPage> {
  return session(ctx, async (tx) => {
    const { proposals, nextCursor } = await proposalPage(tx, inboxList, input.cursor, Prisma.sql`p.closed_at IS NULL AND ${reviewable}`);
    const taskIds = [...new Set(proposals.flatMap((proposal) => proposal.suggestions.map((s) => s.task_id)))];
    const tasks =
      taskIds.length === 0
        ? []
        : await tx.$queryRaw<InboxTask[]>`
            SELECT id::text, board_id::text, task_number, title, quadrant::text AS quadrant, status::text AS status, version
              FROM tasks WHERE id = ANY(${taskIds}::uuid[])`;
    return { proposals, tasks, nextCursor };
  });
}

/** How many open proposals wait on each board the caller may review (boards with none are left out). */
export function countInbox(ctx: BoardsContext): Promise<InboxCounts> {
  return session(ctx, async (tx) => {
    const rows = await tx.$queryRaw<{ board_id: string; pending: number }[]>`
      SELECT p.board_id::text, count(*)::int AS pending FROM proposals p
       WHERE p.closed_at IS NULL AND ${proposalAlive} AND ${reviewable}
       GROUP BY p.board_id ORDER BY p.board_id`;
    return { total: rows.reduce((sum, row) => sum + row.pending, 0), boards: rows };
  });
}

export const reproposeInput = z.strictObject({
  requestId: z.guid().describe("A new UUID per re-proposal; the same one returns the same proposal while it exists."),
});

export interface ReproposeRef {
  boardId: string;
  proposalId: string;
  suggestionId: string;
  requestId: string;
}

/**
 * An obsolete suggestion proposed again, by the reviewing person: a new proposal (no summary) with one suggestion —
 * the same task, quadrant and reason — at the task's current version, so it can be applied now. The original stays
 * as it was (obsolete); the new proposal's event names it (`reproposed_from`), so it is proposed again once only.
 */
export function reproposeSuggestion(ctx: BoardsContext, ref: ReproposeRef): Promise<ProposalResult> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, ref.boardId, "write");
    const [suggestion] = await tx.$queryRaw<{ task_id: string; quadrant: QuadrantId; reason: string; state: string }[]>`
      SELECT s.task_id::text, s.quadrant::text AS quadrant, s.reason, s.state::text AS state
        FROM suggestions s JOIN proposals p ON p.account_id = s.account_id AND p.id = s.proposal_id
       WHERE s.id = ${ref.suggestionId}::uuid AND s.proposal_id = ${ref.proposalId}::uuid AND p.board_id = ${ref.boardId}::uuid
         AND ${proposalAlive}`;
    if (!suggestion)
      throw new DomainError(ErrorCode.notFound, "Suggestion not found in this proposal.", { suggestionId: ref.suggestionId });
    if (suggestion.state !== "obsolete")
      throw new DomainError(
        ErrorCode.failedPrecondition,
        `Only an obsolete suggestion is proposed again (this one is ${suggestion.state}).`,
        {
          state: suggestion.state,
        },
      );
    await refuseSecondReproposal(tx, ref);
    const [task] = await tx.$queryRaw<{ version: number; quadrant: QuadrantId; active: boolean }[]>`
      SELECT version, quadrant::text AS quadrant, status = 'active' AND archived_at IS NULL AS active
        FROM tasks WHERE id = ${suggestion.task_id}::uuid AND board_id = ${ref.boardId}::uuid`;
    if (!task?.active)
      throw new DomainError(ErrorCode.failedPrecondition, "The task is no longer active on this board: there is nothing to move.", {
        taskId: suggestion.task_id,
      });
    if (task.quadrant === suggestion.quadrant)
      throw new DomainError(ErrorCode.failedPrecondition, "The task is already in the suggested quadrant.", { quadrant: task.quadrant });
    return insertProposal(
      tx,
      ctx,
      {
        requestId: ref.requestId,
        boardId: ref.boardId,
        suggestions: [{ taskId: suggestion.task_id, version: task.version, quadrant: suggestion.quadrant, reason: suggestion.reason }],
      },
      { reproposed_from: ref.suggestionId },
    );
  });
}

/**
 * One re-proposal per obsolete suggestion (two would leave two pending moves of one task): a repeat of the same
 * requestId is let through to answer with its proposal (idempotency); any other names the proposal that exists.
 * Serialised by the lock on the board's order, as every write that hands out positions.
 */
async function refuseSecondReproposal(tx: BoardsTx, ref: ReproposeRef): Promise<void> {
  await lockBoardOrder(tx, ref.boardId);
  const [earlier] = await tx.$queryRaw<{ id: string; request_id: string }[]>`
    SELECT p.id::text, p.request_id::text FROM activity_events e JOIN proposals p ON p.account_id = e.account_id AND p.id::text = e.entity_id
     WHERE e.board_id = ${ref.boardId}::uuid AND e.event_type = 'proposal_submitted' AND e.metadata->>'reproposed_from' = ${ref.suggestionId.toLowerCase()}
     LIMIT 1`;
  if (earlier && earlier.request_id !== ref.requestId.toLowerCase())
    throw new DomainError(ErrorCode.failedPrecondition, "This suggestion was proposed again already.", { proposalId: earlier.id });
}
