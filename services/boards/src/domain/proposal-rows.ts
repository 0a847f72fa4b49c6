/** Reading proposals with their suggestions (in the order they were submitted). */
import { Prisma } from "../db/generated/client.js";
import type { BoardsTx } from "../db/client.js";
import { retention } from "./limits.js";
import type { QuadrantId } from "./quadrants.js";
import { optionalTimestamp, timestamp } from "./time.js";
import type { ProposalRecord, SuggestionState } from "./views.js";

export interface ProposalRow {
  id: string;
  board_id: string;
  summary: string | null;
  summary_closed: boolean;
  closed_at: Date | null;
  created_at: Date;
  created_by: string;
  content_hash: string;
}

interface SuggestionRow {
  id: string;
  proposal_id: string;
  task_id: string;
  version: number;
  quadrant: QuadrantId;
  reason: string;
  state: SuggestionState;
}

export const proposalColumns = Prisma.sql`p.id::text, p.board_id::text, p.summary, p.summary_closed, p.closed_at, p.created_at, p.created_by, p.content_hash`;

/** Closed proposals older than 90 days no longer exist, whether or not the expiry job has run. */
export const proposalAlive = Prisma.sql`(p.closed_at IS NULL OR p.closed_at >= now() - make_interval(secs => ${retention.closedProposalMs / 1000}))`;

export async function withSuggestions(tx: BoardsTx, rows: ProposalRow[]): Promise<ProposalRecord[]> {
  if (rows.length === 0) return [];
  const suggestions = await tx.$queryRaw<SuggestionRow[]>`
    SELECT id::text, proposal_id::text, task_id::text, version, quadrant::text AS quadrant, reason, state::text AS state
      FROM suggestions WHERE proposal_id = ANY(${rows.map((row) => row.id)}::uuid[])
     ORDER BY proposal_id, ordinal`;
  return rows.map((row) => ({
    id: row.id,
    board_id: row.board_id,
    summary: row.summary,
    summary_closed: row.summary_closed,
    suggestions: suggestions
      .filter((s) => s.proposal_id === row.id)
      .map(({ id, task_id, version, quadrant, reason, state }) => ({ id, task_id, version, quadrant, reason, state })),
    closed_at: optionalTimestamp(row.closed_at),
    created_at: timestamp(row.created_at),
    created_by: row.created_by,
  }));
}

export async function readProposal(tx: BoardsTx, boardId: string, proposalId: string): Promise<ProposalRecord | undefined> {
  const rows = await tx.$queryRaw<ProposalRow[]>`
    SELECT ${proposalColumns} FROM proposals p WHERE p.id = ${proposalId}::uuid AND p.board_id = ${boardId}::uuid AND ${proposalAlive}`;
  const [proposal] = await withSuggestions(tx, rows);
  return proposal;
}
