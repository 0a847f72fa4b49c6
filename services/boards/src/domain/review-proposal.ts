/**
 * Human review of proposals (REST only, owners and editors). Applying a suggestion moves the task to the
 * suggested quadrant (at its end) only if the task is still at the version the suggestion was made
 * for, still active and not archived; otherwise the suggestion becomes `obsolete` and nothing moves.
 * A proposal closes (closed_at) once its summary is closed and no suggestion is pending.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoardsTx } from "../db/client.js";
import { Prisma } from "../db/generated/client.js";
import { lockBoardOrder, reachBoard } from "./access.js";
import { recordEvent } from "./activity.js";
import { session, type BoardsContext } from "./context.js";
import { endOfQuadrant } from "./positions.js";
import { readProposal } from "./proposal-rows.js";
import type { QuadrantId } from "./quadrants.js";
import type { ProposalRecord, SuggestionState } from "./views.js";

export interface SuggestionRef {
  boardId: string;
  proposalId: string;
  suggestionId: string;
}

export type ProposalRef = Omit<SuggestionRef, "suggestionId">;

export type Review = { proposal: ProposalRecord; outcome: SuggestionState };

export function applySuggestion(ctx: BoardsContext, ref: SuggestionRef): Promise<Review> {
  return reviewSuggestion(ctx, ref, "apply");
}

export function rejectSuggestion(ctx: BoardsContext, ref: SuggestionRef): Promise<Review> {
  return reviewSuggestion(ctx, ref, "reject");
}

type Action = "apply" | "reject";
type Outcome = Exclude<SuggestionState, "pending">;

interface PendingSuggestion {
  id: string;
  task_id: string;
  version: number;
  quadrant: QuadrantId;
  state: SuggestionState;
}

const suggestionColumns = Prisma.sql`id::text, task_id::text, version, quadrant::text AS quadrant, state::text AS state`;

async function reviewSuggestion(ctx: BoardsContext, ref: SuggestionRef, action: Action): Promise<Review> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, ref.boardId, "write");
    await lockProposal(tx, ref);
    const [suggestion] = await tx.$queryRaw<PendingSuggestion[]>`
      SELECT ${suggestionColumns} FROM suggestions WHERE id = ${ref.suggestionId}::uuid AND proposal_id = ${ref.proposalId}::uuid`;
    if (!suggestion)
      throw new DomainError(ErrorCode.notFound, "Suggestion not found in this proposal.", { suggestionId: ref.suggestionId });
    if (suggestion.state !== "pending") {
      throw new DomainError(ErrorCode.failedPrecondition, `The suggestion was already reviewed (${suggestion.state}).`, {
        state: suggestion.state,
      });
    }
    const outcome = await decide(tx, ctx, ref, suggestion, action);
    return { proposal: await closeIfDone(tx, ref), outcome };
  });
}

/**
 * Apply all / Reject all: every pending suggestion of the proposal, in the order submitted, in one transaction —
 * each applied one is checked against its task's version like a single Apply (a stale one turns obsolete).
 */
export function reviewAll(
  ctx: BoardsContext,
  ref: ProposalRef,
  action: Action,
): Promise<{ proposal: ProposalRecord; outcomes: Record<string, Outcome> }> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, ref.boardId, "write");
    await lockProposal(tx, ref);
    const pending = await tx.$queryRaw<PendingSuggestion[]>`
      SELECT ${suggestionColumns} FROM suggestions WHERE proposal_id = ${ref.proposalId}::uuid AND state = 'pending' ORDER BY ordinal`;
    if (pending.length === 0)
      throw new DomainError(ErrorCode.failedPrecondition, "The proposal has no pending suggestion.", { proposalId: ref.proposalId });
    const outcomes: Record<string, Outcome> = {};
    for (const suggestion of pending) outcomes[suggestion.id] = await decide(tx, ctx, ref, suggestion, action);
    return { proposal: await closeIfDone(tx, ref), outcomes };
  });
}

/** One pending suggestion decided: its state, reviewer and activity event (and, applied, the task's move). */
async function decide(tx: BoardsTx, ctx: BoardsContext, ref: ProposalRef, suggestion: PendingSuggestion, action: Action): Promise<Outcome> {
  const outcome = action === "apply" ? await applyMove(tx, ctx, ref, suggestion) : "rejected";
  await tx.$executeRaw`
    UPDATE suggestions SET state = ${outcome}::suggestion_state, reviewed_by = ${ctx.personId}, reviewed_at = now()
     WHERE id = ${suggestion.id}::uuid`;
  await recordEvent(tx, ctx, {
    boardId: ref.boardId,
    eventType: `suggestion_${outcome}`,
    entityType: "proposal",
    entityId: ref.proposalId,
    metadata: { suggestion_id: suggestion.id, task_id: suggestion.task_id },
  });
  return outcome;
}

async function applyMove(tx: BoardsTx, ctx: BoardsContext, ref: ProposalRef, suggestion: PendingSuggestion): Promise<Outcome> {
  await lockBoardOrder(tx, ref.boardId);
  const [task] = await tx.$queryRaw<{ version: number; status: string; archived: boolean; quadrant: QuadrantId }[]>`
    SELECT version, status::text AS status, archived_at IS NOT NULL AS archived, quadrant::text AS quadrant
      FROM tasks WHERE id = ${suggestion.task_id}::uuid AND board_id = ${ref.boardId}::uuid FOR UPDATE`;
  if (!task || task.version !== suggestion.version || task.status !== "active" || task.archived) return "obsolete";
  const position = await endOfQuadrant(tx, ref.boardId, suggestion.quadrant);
  await tx.$executeRaw`
    UPDATE tasks SET quadrant = ${suggestion.quadrant}::quadrant, position = ${position}, version = version + 1, updated_at = now()
     WHERE id = ${suggestion.task_id}::uuid`;
  await recordEvent(tx, ctx, {
    boardId: ref.boardId,
    eventType: "task_moved",
    entityType: "task",
    entityId: suggestion.task_id,
    metadata: { from_quadrant: task.quadrant, to_quadrant: suggestion.quadrant, proposal_id: ref.proposalId },
  });
  return "applied";
}

/** Closes the summary; with `rejectPending`, also rejects every pending suggestion (dismissing the proposal). */
export function closeProposal(ctx: BoardsContext, ref: ProposalRef, rejectPending: boolean): Promise<{ proposal: ProposalRecord }> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, ref.boardId, "write");
    await lockProposal(tx, ref);
    await tx.$executeRaw`UPDATE proposals SET summary_closed = true WHERE id = ${ref.proposalId}::uuid`;
    if (rejectPending) {
      await tx.$executeRaw`
        UPDATE suggestions SET state = 'rejected', reviewed_by = ${ctx.personId}, reviewed_at = now()
         WHERE proposal_id = ${ref.proposalId}::uuid AND state = 'pending'`;
    }
    await recordEvent(tx, ctx, {
      boardId: ref.boardId,
      eventType: rejectPending ? "proposal_dismissed" : "proposal_summary_closed",
      entityType: "proposal",
      entityId: ref.proposalId,
    });
    return { proposal: await closeIfDone(tx, ref) };
  });
}

async function lockProposal(tx: BoardsTx, ref: { boardId: string; proposalId: string }): Promise<void> {
  const [row] = await tx.$queryRaw<{ closed: boolean }[]>`
    SELECT closed_at IS NOT NULL AS closed FROM proposals WHERE id = ${ref.proposalId}::uuid AND board_id = ${ref.boardId}::uuid FOR UPDATE`;
  if (!row) throw new DomainError(ErrorCode.notFound, "Proposal not found in this board.", { proposalId: ref.proposalId });
  if (row.closed)
    throw new DomainError(ErrorCode.failedPrecondition, "The proposal is closed: every item was reviewed.", { proposalId: ref.proposalId });
}

async function closeIfDone(tx: BoardsTx, ref: { boardId: string; proposalId: string }): Promise<ProposalRecord> {
  await tx.$executeRaw`
    UPDATE proposals p SET closed_at = now()
     WHERE p.id = ${ref.proposalId}::uuid AND p.closed_at IS NULL AND p.summary_closed
       AND NOT EXISTS (SELECT 1 FROM suggestions s WHERE s.proposal_id = p.id AND s.state = 'pending')`;
  return (await readProposal(tx, ref.boardId, ref.proposalId))!;
}
