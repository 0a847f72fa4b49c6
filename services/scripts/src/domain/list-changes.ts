import type { ScriptsContext } from "./context.js";

export interface ChangeView {
  seq: number;
  scriptId: string;
  revision: number;
  kind: "created" | "updated" | "trashed" | "restored";
  at: string;
}

/** The account's changes after a cursor, in order. `nextCursor` is the cursor to pass next time. */
export async function listChanges(
  ctx: ScriptsContext,
  after: number,
  limit: number,
): Promise<{ changes: ChangeView[]; nextCursor: string }> {
  const rows = await ctx.db.change.findMany({
    where: { accountId: ctx.accountId, seq: { gt: BigInt(after) } },
    orderBy: { seq: "asc" },
    take: limit,
  });
  const changes = rows.map((row) => ({
    seq: Number(row.seq),
    scriptId: row.scriptId,
    revision: row.revision,
    kind: row.kind,
    at: row.at.toISOString(),
  }));
  return { changes, nextCursor: String(changes.at(-1)?.seq ?? after) };
}
