/** list_boxes: newest first, filtered by state and by metadata pairs (all must match), keyset pages; each box with this month's cost. */
import { Prisma } from "../db/generated/client.js";
import { boxAnswers } from "./box-answer.js";
import type { BoxesContext } from "./context.js";
import { afterCursor, newestFirst, pageOf } from "./newest-first.js";
import type { ListBoxesInput, ListBoxesResult } from "./schemas/box.js";

export async function listBoxes(ctx: BoxesContext, input: ListBoxesInput): Promise<ListBoxesResult> {
  const after = afterCursor(input.cursor, "list_boxes");
  const where: Prisma.BoxWhereInput[] = [{ accountId: ctx.accountId }];
  // Deleted boxes show when asked for: includeDeleted, or "deleted" named in the state filter.
  if (input.state) where.push({ state: { in: input.state } });
  else if (!input.includeDeleted) where.push({ state: { not: "deleted" } });
  for (const [key, value] of Object.entries(input.metadata ?? {})) where.push({ metadata: { path: [key], equals: value } });
  if (after) where.push(after);
  const rows = await ctx.db.box.findMany({ where: { AND: where }, orderBy: newestFirst, take: input.limit + 1 });
  const { page, nextCursor } = pageOf(rows, input.limit);
  return { boxes: await boxAnswers(ctx, page), nextCursor };
}
