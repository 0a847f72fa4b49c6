/** list_snapshots: the account's snapshots, newest first, optionally of one box (its id or name), keyset pages. */
import { invalidArgument } from "@bancada/contracts";
import type { Prisma } from "../db/generated/client.js";
import type { BoxesContext } from "./context.js";
import { findBox } from "./find-box.js";
import { decodeCursor, encodeCursor } from "./ids.js";
import type { ListSnapshotsInput, ListSnapshotsResult } from "./schemas/disk.js";
import { toSnapshotView } from "./snapshot-view.js";

export async function listSnapshots(ctx: BoxesContext, input: ListSnapshotsInput): Promise<ListSnapshotsResult> {
  const cursor = input.cursor === undefined ? null : decodeCursor(input.cursor);
  if (input.cursor !== undefined && !cursor)
    throw invalidArgument([{ path: "cursor", message: "is not a nextCursor from list_snapshots" }]);
  const where: Prisma.SnapshotWhereInput[] = [{ accountId: ctx.accountId, state: { not: "deleted" } }];
  // By the box's id or name, as every tool: another account's box is not found.
  if (input.boxId !== undefined) where.push({ boxId: (await findBox(ctx, input.boxId)).id });
  if (cursor) {
    const at = new Date(cursor.createdAt);
    where.push({ OR: [{ createdAt: { lt: at } }, { createdAt: at, id: { lt: cursor.id } }] });
  }
  const rows = await ctx.db.snapshot.findMany({
    where: { AND: where },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    snapshots: page.map(toSnapshotView),
    nextCursor: rows.length > input.limit && last ? encodeCursor({ createdAt: last.createdAt.toISOString(), id: last.id }) : null,
  };
}
