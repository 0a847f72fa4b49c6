/**
 * submit_board_proposal: stores a proposal for human review without touching any task. Idempotent by
 * requestId for as long as the proposal exists (not the 7-day window of task writes): the same content
 * returns the proposal as it is now, other content is IDEMPOTENCY_CONFLICT. Suggestions must name
 * tasks of this board; their versions are checked only when a human applies them.
 */
import { randomUUID } from "node:crypto";
import type { BoardsTx } from "../db/client.js";
import { reachBoard } from "./access.js";
import { recordEvent } from "./activity.js";
import { session, type BoardsContext } from "./context.js";
import { idempotencyConflict, invalidField } from "./errors.js";
import { argsHash } from "./idempotency.js";
import type { SubmitProposalInput } from "./inputs.js";
import { readProposal } from "./proposal-rows.js";
import type { ProposalResult } from "./views.js";

export function submitProposal(ctx: BoardsContext, input: SubmitProposalInput): Promise<ProposalResult> {
  return session(ctx, async (tx) => {
    await reachBoard(tx, input.boardId, "write");
    return insertProposal(tx, ctx, input);
  });
}

/** Stores the proposal in the caller's transaction (the board already reached for writing); `origin` joins its event. */
export async function insertProposal(
  tx: BoardsTx,
  ctx: BoardsContext,
  input: SubmitProposalInput,
  origin: Record<string, unknown> = {},
): Promise<ProposalResult> {
  const hash = argsHash("submit_board_proposal", { boardId: input.boardId, summary: input.summary, suggestions: input.suggestions });
  const id = randomUUID();
  const claimed = await tx.$executeRaw`
    INSERT INTO proposals (account_id, id, board_id, request_id, content_hash, summary, summary_closed, created_by, agent_id, created_at)
    VALUES (${ctx.accountId}, ${id}::uuid, ${input.boardId}::uuid, ${input.requestId}::uuid, ${hash}, ${input.summary ?? null},
            ${input.summary === undefined}, ${ctx.personId}, ${ctx.agentId}, now())
    ON CONFLICT (account_id, request_id) DO NOTHING`;
  if (claimed === 0) return existing(tx, input, hash);
  await insertSuggestions(tx, ctx, input, id);
  await recordEvent(tx, ctx, {
    boardId: input.boardId,
    eventType: "proposal_submitted",
    entityType: "proposal",
    entityId: id,
    metadata: { suggestions: input.suggestions.length, has_summary: input.summary !== undefined, ...origin },
  });
  return { proposal: (await readProposal(tx, input.boardId, id))! };
}

/** The requestId is taken: the same content on the same board is this proposal; anything else conflicts. */
async function existing(tx: BoardsTx, input: SubmitProposalInput, hash: string): Promise<ProposalResult> {
  const [previous] = await tx.$queryRaw<{ id: string; content_hash: string }[]>`
    SELECT id::text, content_hash FROM proposals WHERE request_id = ${input.requestId}::uuid AND board_id = ${input.boardId}::uuid`;
  if (!previous || previous.content_hash !== hash) throw idempotencyConflict(input.requestId, "content");
  const proposal = await readProposal(tx, input.boardId, previous.id);
  if (!proposal) throw idempotencyConflict(input.requestId, "content (the proposal has expired)");
  return { proposal };
}

async function insertSuggestions(tx: BoardsTx, ctx: BoardsContext, input: SubmitProposalInput, proposalId: string): Promise<void> {
  if (input.suggestions.length === 0) return;
  const taskIds = input.suggestions.map((s) => s.taskId);
  const known = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM tasks WHERE board_id = ${input.boardId}::uuid AND id = ANY(${taskIds}::uuid[]) AND archived_at IS NULL`;
  const found = new Set(known.map((task) => task.id));
  const missing = taskIds.findIndex((id) => !found.has(id.toLowerCase()));
  if (missing >= 0) throw invalidField(`suggestions[${missing}].taskId`, "not a task of this board (or archived)");
  await tx.$executeRaw`
    INSERT INTO suggestions (account_id, id, proposal_id, board_id, ordinal, task_id, version, quadrant, reason, state)
    SELECT ${ctx.accountId}, gen_random_uuid(), ${proposalId}::uuid, ${input.boardId}::uuid, s.ordinal, s.task_id, s.version, s.quadrant::quadrant, s.reason, 'pending'
      FROM unnest(${taskIds}::uuid[], ${input.suggestions.map((s) => s.version)}::int[],
                  ${input.suggestions.map((s) => s.quadrant)}::text[], ${input.suggestions.map((s) => s.reason)}::text[])
           WITH ORDINALITY AS s(task_id, version, quadrant, reason, ordinal)`;
}
