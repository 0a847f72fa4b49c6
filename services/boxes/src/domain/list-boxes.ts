/** list_boxes: newest first, filtered by state and by metadata pairs (all must match), keyset pages; each box with this month's cost. */
import { invalidArgument } from "@bancada/contracts";
import { Prisma } from "../db/generated/client.js";
import { boxAnswers } from "./box-answer.js";
import type { BoxesContext } from "./context.js";
import { decodeCursor, encodeCursor } from "./ids.js";
import type { ListBoxesInput, ListBoxesResult } from "./schemas/box.js";

export async function listBoxes(ctx: BoxesContext, input: ListBoxesInput): Promise<ListBoxesResult> {
  const cursor = input.cursor === undefined ? null : decodeCursor(input.cursor);
  if (input.cursor !== undefined && !cursor) throw invalidArgument([{ path: "cursor", message: "is not a nextCursor from list_boxes" }]);
  const where: Prisma.BoxWhereInput[] = [{ accountId: ctx.accountId }];
  // Deleted boxes show when asked for: includeDeleted, or "deleted" named in the state filter.
  if (input.state) where.push({ state: { in: input.state } });
  else if (!input.includeDeleted) where.push({ state: { not: "deleted" } });
  for (const [key, value] of Object.entries(input.metadata ?? {})) where.push({ metadata: { path: [key], equals: value } });
  if (cursor) {
    const at = new Date(cursor.createdAt);
    where.push({ OR: [{ createdAt: { lt: at } }, { createdAt: at, id: { lt: cursor.id } }] });
  }
  const rows = await ctx.db.box.findMany({
    where: { AND: where },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    boxes: await boxAnswers(ctx, page),
    nextCursor: rows.length > input.limit && last ? encodeCursor({ createdAt: last.createdAt.toISOString(), id: last.id }) : null,
  };
}
