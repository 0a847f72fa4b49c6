/** Bulk fixtures written straight into the tables (tests and the bench): no vitest import here. */
import { generateNKeysBetween } from "fractional-indexing";
import type { BoardsDb } from "../src/index.js";

export const quadrantIds = ["urgent-important", "not-urgent-important", "urgent-not-important", "not-urgent-not-important", "backlog"];

/**
 * Fixture only: inserts `count` active tasks straight into the table, spread over the quadrants (or all in
 * one), with real position keys (quadrant rank digit + fractional-index key) in task-number order.
 */
export async function seedTasks(db: BoardsDb, boardId: string, count: number, quadrant?: string): Promise<void> {
  const quadrantOf = (n: number) => quadrant ?? quadrantIds[n % 5]!;
  const perQuadrant = new Map<string, number>();
  for (let n = 1; n <= count; n++) perQuadrant.set(quadrantOf(n), (perQuadrant.get(quadrantOf(n)) ?? 0) + 1);
  const keys = new Map([...perQuadrant].map(([q, total]) => [q, generateNKeysBetween(null, null, total)]));
  const rows = Array.from({ length: count }, (_, i) => {
    const q = quadrantOf(i + 1);
    return { n: i + 1, quadrant: q, position: `${quadrantIds.indexOf(q)}${keys.get(q)!.shift()!}` };
  });
  await db.$executeRawUnsafe(
    `INSERT INTO boards.tasks (account_id, id, board_id, task_number, title, quadrant, position, status, version, created_by, created_at, updated_at)
     SELECT (SELECT account_id FROM boards.boards WHERE id = $1::uuid), gen_random_uuid(), $1::uuid, r.n, 'Tarefa ' || r.n, r.quadrant::boards.quadrant, r.position, 'active', 1, 'fixture', now(), now()
       FROM unnest($2::int[], $3::text[], $4::text[]) AS r(n, quadrant, position)`,
    boardId,
    rows.map((r) => r.n),
    rows.map((r) => r.quadrant),
    rows.map((r) => r.position),
  );
}
