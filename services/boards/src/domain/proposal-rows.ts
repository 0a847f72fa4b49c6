/** Reading proposals with their suggestions (in the order they were submitted). */
import { z } from "zod";
import { Prisma } from "../db/generated/client.js";
import type { BoardsTx } from "../db/client.js";
import { decodeCursor, encodeCursor } from "./cursor.js";
import { limits, retention } from "./limits.js";
import type { QuadrantId } from "./quadrants.js";
import { optionalTimestamp, timestamp } from "./time.js";
import type { ProposalRecord, SuggestionState } from "./views.js";

interface ProposalRow {
  id: string;
  board_id: string;
  summary: string | null;
  summary_closed: boolean;
  closed_at: Date | null;
  created_at: Date;
  created_by: string;
  agent_id: string;
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
  from_quadrant: QuadrantId | null;
  reproposed_as: string | null;
}

const proposalColumns = Prisma.sql`p.id::text, p.board_id::text, p.summary, p.summary_closed, p.closed_at, p.created_at, p.created_by, p.agent_id, p.content_hash`;

/** Closed proposals older than 90 days no longer exist, whether or not the expiry job has run. */
export const proposalAlive = Prisma.sql`(p.closed_at IS NULL OR p.closed_at >= now() - make_interval(secs => ${retention.closedProposalMs / 1000}))`;

const pageKey = z.object({ t: z.iso.datetime(), i: z.guid() });

/**
 * One page of living proposals that `where` selects, newest first (keyset on created_at, id; 50 a page), with their
 * suggestions. `list` names the list, so that a cursor continues only the list it came from.
 */
export async function proposalPage(
  tx: BoardsTx,
  list: string,
  cursor: string | undefined,
  where: Prisma.Sql,
): Promise<{ proposals: ProposalRecord[]; nextCursor: string | null }> {
  const before = cursor ? decodeCursor(cursor, list, pageKey) : undefined;
  const rows = await tx.$queryRaw<ProposalRow[]>`
    SELECT ${proposalColumns} FROM proposals p
     WHERE ${where} AND ${proposalAlive}
       ${before ? Prisma.sql`AND (p.created_at, p.id) < (${new Date(before.t)}, ${before.i}::uuid)` : Prisma.empty}
     ORDER BY p.created_at DESC, p.id DESC
     LIMIT ${limits.proposalPageSize + 1}`;
  const page = rows.slice(0, limits.proposalPageSize);
  const last = page.at(-1);
  const more = rows.length > limits.proposalPageSize && last;
  return {
    proposals: await withSuggestions(tx, page),
    nextCursor: more ? encodeCursor(list, { t: last.created_at.toISOString(), i: last.id }) : null,
  };
}

async function withSuggestions(tx: BoardsTx, rows: ProposalRow[]): Promise<ProposalRecord[]> {
  if (rows.length === 0) return [];
  // an applied suggestion's origin is the quadrant its task_moved event left (the task itself has moved since);
  // an obsolete one proposed again is named by the new proposal's proposal_submitted event
  const suggestions = await tx.$queryRaw<SuggestionRow[]>`
    SELECT s.id::text, s.proposal_id::text, s.task_id::text, s.version, s.quadrant::text AS quadrant, s.reason, s.state::text AS state,
           CASE WHEN s.state = 'applied' THEN (
             SELECT e.metadata->>'from_quadrant' FROM activity_events e
              WHERE e.board_id = s.board_id AND e.event_type = 'task_moved' AND e.entity_id = s.task_id::text
                AND e.metadata->>'proposal_id' = s.proposal_id::text
              ORDER BY e.created_at DESC LIMIT 1) END AS from_quadrant,
           CASE WHEN s.state = 'obsolete' THEN (
             SELECT e.entity_id FROM activity_events e
              WHERE e.board_id = s.board_id AND e.event_type = 'proposal_submitted' AND e.metadata->>'reproposed_from' = s.id::text
              ORDER BY e.created_at LIMIT 1) END AS reproposed_as
      FROM suggestions s WHERE s.proposal_id = ANY(${rows.map((row) => row.id)}::uuid[])
     ORDER BY s.proposal_id, s.ordinal`;
  return rows.map((row) => ({
    id: row.id,
    board_id: row.board_id,
    summary: row.summary,
    summary_closed: row.summary_closed,
    suggestions: suggestions
      .filter((s) => s.proposal_id === row.id)
      .map(({ id, task_id, version, quadrant, reason, state, from_quadrant, reproposed_as }) => ({
        id,
        task_id,
        version,
        quadrant,
        reason,
        state,
        from_quadrant,
        reproposed_as,
      })),
    closed_at: optionalTimestamp(row.closed_at),
    created_at: timestamp(row.created_at),
    created_by: row.created_by,
    agent_id: row.agent_id,
  }));
}

export async function readProposal(tx: BoardsTx, boardId: string, proposalId: string): Promise<ProposalRecord | undefined> {
  const rows = await tx.$queryRaw<ProposalRow[]>`
    SELECT ${proposalColumns} FROM proposals p WHERE p.id = ${proposalId}::uuid AND p.board_id = ${boardId}::uuid AND ${proposalAlive}`;
  const [proposal] = await withSuggestions(tx, rows);
  return proposal;
}
