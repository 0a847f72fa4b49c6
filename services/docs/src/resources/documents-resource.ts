/**
 * The corpus's documents as MCP resources: `bancada://documents/{path}` is the document named `documents/{path}`
 * (the names get_documents and search_documents use), read as its Markdown — what get_documents returns. The
 * corpus is shared by every key with docs:read, like the tools. Listed in name order, a page at a time; the path
 * completes from the names that start with what was typed.
 */
import { defineResource } from "@bancada/service-kit";
import type { DocsDb } from "../db/client.js";
import { getDocuments } from "../domain/get-documents.js";

const prefix = "documents/";
const pageSize = 100;
const completionsMax = 100;

export const documentsResource = (db: DocsDb) =>
  defineResource({
    name: "documents",
    uriTemplate: "bancada://documents/{path}",
    title: "Documents",
    description: "A document of the corpus in Markdown, as get_documents returns it (name documents/{path}).",
    mimeType: "text/markdown",
    scope: "docs:read",
    async list(_ctx, cursor) {
      const rows = await db.document.findMany({
        where: cursor === undefined ? {} : { name: { gt: cursor } },
        orderBy: { name: "asc" },
        take: pageSize + 1,
        select: { name: true, title: true, description: true, uri: true },
      });
      const page = rows.slice(0, pageSize);
      return {
        resources: page.map((row) => ({
          uri: `bancada://${row.name}`,
          name: row.name,
          title: row.title,
          ...(row.description ? { description: row.description } : {}),
          mimeType: "text/markdown",
        })),
        ...(rows.length > pageSize ? { nextCursor: page.at(-1)!.name } : {}),
      };
    },
    async read(_ctx, uri, { path }) {
      const [document] = await getDocuments(db, [`${prefix}${path}`]);
      return [{ uri, mimeType: "text/markdown", text: markdownOf(document!) }];
    },
    complete: {
      async path(_ctx, value) {
        const rows = await db.document.findMany({
          where: { name: { startsWith: `${prefix}${value}` } },
          orderBy: { name: "asc" },
          take: completionsMax + 1,
          select: { name: true },
        });
        return { values: rows.slice(0, completionsMax).map((row) => row.name.slice(prefix.length)), hasMore: rows.length > completionsMax };
      },
    },
  });

/** The document as a reader gets it: its title, where it came from, then its content. */
function markdownOf(document: { title: string; uri: string; content: string }): string {
  return `# ${document.title}\n\nSource: ${document.uri}\n\n${document.content}`;
}
