/** Keyset pages, newest first (created_at, then id, both descending): list_boxes and list_snapshots page alike. */
import { invalidArgument } from "@bancada/contracts";
import { decodeCursor, encodeCursor } from "./ids.js";

export const newestFirst = [{ createdAt: "desc" as const }, { id: "desc" as const }];

/** The filter for the rows after `cursor` (none for the first page); a cursor that no list gave is invalid_argument. */
export function afterCursor(cursor: string | undefined, tool: string) {
  if (cursor === undefined) return undefined;
  const after = decodeCursor(cursor);
  if (!after) throw invalidArgument([{ path: "cursor", message: `is not a nextCursor from ${tool}` }]);
  const at = new Date(after.createdAt);
  return { OR: [{ createdAt: { lt: at } }, { createdAt: at, id: { lt: after.id } }] };
}

/** `rows` were read with `take: limit + 1`: the page, and the cursor of the next one when that extra row came. */
export function pageOf<Row extends { createdAt: Date; id: string }>(
  rows: Row[],
  limit: number,
): { page: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt.toISOString(), id: last.id }) : null };
}
