/**
 * A task's place on the board is one text key: its quadrant's rank digit ("0" for urgent-important …
 * "4" for backlog) followed by a fractional-index key (the fractional-indexing package: between any two
 * keys there is always another, and appending grows keys only logarithmically). Keys compare bytewise
 * (COLLATE "C") and are unique per board, so (board_id, position) orders the whole board.
 *
 * Why text and not a number: a move changes only the moved task's key (no renumbering, so keyset paging
 * never skips a task that did not move), and text comparisons are leakproof, so under row-level security
 * PostgreSQL may still use them as index conditions (numeric and enum comparisons it may not).
 * Callers hold lockBoardOrder, so two writers cannot pick the same key.
 */
import { generateKeyBetween } from "fractional-indexing";
import type { BoardsTx } from "../db/client.js";
import { invalidField } from "./errors.js";
import { quadrantIds, type QuadrantId } from "./quadrants.js";

/** The key range [low, high) of a quadrant's tasks. */
export function quadrantRange(quadrant: QuadrantId): { low: string; high: string } {
  const rank = quadrantIds.indexOf(quadrant);
  return { low: String(rank), high: String(rank + 1) };
}

const fraction = (position: string) => position.slice(1);

export async function endOfQuadrant(tx: BoardsTx, boardId: string, quadrant: QuadrantId): Promise<string> {
  const { low, high } = quadrantRange(quadrant);
  const [last] = await tx.$queryRaw<{ position: string }[]>`
    SELECT position FROM tasks WHERE board_id = ${boardId}::uuid AND position >= ${low} AND position < ${high}
     ORDER BY position DESC LIMIT 1`;
  return low + generateKeyBetween(last ? fraction(last.position) : null, null);
}

/** The key just before `beforeId`, which must be another (not archived) task of the target quadrant. */
export async function beforeTask(tx: BoardsTx, boardId: string, quadrant: QuadrantId, beforeId: string, movingId: string): Promise<string> {
  if (beforeId.toLowerCase() === movingId.toLowerCase()) throw invalidField("beforeId", "must be another task than the one being moved");
  const { low } = quadrantRange(quadrant);
  const [anchor] = await tx.$queryRaw<{ position: string }[]>`
    SELECT position FROM tasks
     WHERE id = ${beforeId}::uuid AND board_id = ${boardId}::uuid AND quadrant = ${quadrant}::quadrant AND archived_at IS NULL`;
  if (!anchor) throw invalidField("beforeId", `no task with this id in quadrant ${quadrant} of this board`);
  const [previous] = await tx.$queryRaw<{ position: string }[]>`
    SELECT position FROM tasks
     WHERE board_id = ${boardId}::uuid AND position >= ${low} AND position < ${anchor.position} AND id <> ${movingId}::uuid
     ORDER BY position DESC LIMIT 1`;
  return low + generateKeyBetween(previous ? fraction(previous.position) : null, fraction(anchor.position));
}
