/**
 * Lists and searches an account's scripts, newest change first. The search is a case-insensitive
 * substring match in title and text (ILIKE), served by the pg_trgm GIN indexes on both columns.
 * The ORDER BY names `scripts.` columns: a bare `id` would be the `id::text` output column and cost a sort.
 */
import { Prisma } from "../db/generated/client.js";
import type { ScriptsContext } from "./context.js";
import { limits, type ListScriptsInput, type ListScriptsResult } from "./schemas.js";
import { toListItem } from "./script-view.js";

interface ListRow {
  id: string;
  account_id: string;
  title: string;
  preview: string;
  status: "draft" | "ready" | "review" | "completed";
  revision: number;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  created_by: string;
  updated_by: string;
}

export async function listScripts(ctx: ScriptsContext, input: ListScriptsInput): Promise<ListScriptsResult> {
  const filters = [
    Prisma.sql`account_id = ${ctx.accountId}`,
    input.trashed ? Prisma.sql`deleted_at IS NOT NULL` : Prisma.sql`deleted_at IS NULL`,
  ];
  if (input.status) filters.push(Prisma.sql`status = ${input.status}::"ScriptStatus"`);
  if (input.query) {
    const pattern = `%${escapeLike(input.query)}%`;
    filters.push(Prisma.sql`(title ILIKE ${pattern} OR text ILIKE ${pattern})`);
  }
  const rows = await ctx.db.$queryRaw<ListRow[]>`
    SELECT id::text, account_id, title, left(text, ${limits.previewMax}::int) AS preview, status::text AS status, revision,
           created_at, updated_at, deleted_at, created_by, updated_by
      FROM scripts
     WHERE ${Prisma.join(filters, " AND ")}
     ORDER BY scripts.updated_at DESC, scripts.id DESC
     LIMIT ${input.limit + 1} OFFSET ${input.offset}`;
  const hasMore = rows.length > input.limit;
  const page = rows.slice(0, input.limit);
  return {
    scripts: page.map((row) =>
      toListItem({
        id: row.id,
        accountId: row.account_id,
        title: row.title,
        preview: row.preview,
        status: row.status,
        revision: row.revision,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        deletedAt: row.deleted_at,
        createdBy: row.created_by,
        updatedBy: row.updated_by,
      }),
    ),
    hasMore,
    nextOffset: hasMore ? input.offset + page.length : null,
  };
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
