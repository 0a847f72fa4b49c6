/** list_snapshots: the account's snapshots, newest first, optionally of one box (its id or name), keyset pages. */
import type { Prisma } from "../db/generated/client.js";
import type { BoxesContext } from "./context.js";
import { findBox } from "./find-box.js";
import { afterCursor, newestFirst, pageOf } from "./newest-first.js";
import type { ListSnapshotsInput, ListSnapshotsResult } from "./schemas/disk.js";
import { toSnapshotView } from "./snapshot-view.js";

export async function listSnapshots(ctx: BoxesContext, input: ListSnapshotsInput): Promise<ListSnapshotsResult> {
  const after = afterCursor(input.cursor, "list_snapshots");
  const where: Prisma.SnapshotWhereInput[] = [{ accountId: ctx.accountId, state: { not: "deleted" } }];
  // By the box's id or name, as every tool: another account's box is not found.
  if (input.boxId !== undefined) where.push({ boxId: (await findBox(ctx, input.boxId)).id });
  if (after) where.push(after);
  const rows = await ctx.db.snapshot.findMany({ where: { AND: where }, orderBy: newestFirst, take: input.limit + 1 });
  const { page, nextCursor } = pageOf(rows, input.limit);
  return { snapshots: page.map(toSnapshotView), nextCursor };
}
