/**
 * Turns the hits of one page into results: the best section of each page (for head matches, the
 * section that ranks highest for the query, as tier 2 ranks sections), its heading path and a highlighted excerpt (ts_headline,
 * the costly part, made for the returned page only, in the page's own language; see highlight.ts).
 */
import type { DocsDb } from "../db/client.js";
import { excerptOf, headlineOptions } from "./highlight.js";
import { rankWeights } from "./ranking/fields.js";
import type { Hit } from "./ranking/search-sql.js";
import type { SearchResult } from "./schemas.js";

interface PageRow {
  i: number;
  name: string;
  id: string;
  title: string;
  uri: string;
  description: string;
  heading_path: string[];
  excerpt: string;
}

/** A page to show: the document, and its section when already chosen. */
export type PageHit = Pick<Hit, "name" | "chunk">;

export async function resultsOf(db: DocsDb, query: string, hits: PageHit[]): Promise<SearchResult[]> {
  if (!hits.length) return [];
  const rows = await db.$queryRaw<PageRow[]>`
    WITH q AS MATERIALIZED (SELECT docs.web_query(${query}) AS tsq),
    page AS (SELECT * FROM unnest(${hits.map((hit) => hit.name)}::text[], ${hits.map((hit) => hit.chunk ?? "0")}::bigint[]) WITH ORDINALITY AS p(name, chunk, i)),
    chosen AS (
      SELECT p.i, p.name, CASE WHEN p.chunk > 0 THEN p.chunk ELSE (
               SELECT c.id FROM chunks c WHERE c.document_name = p.name
                ORDER BY ts_rank(${rankWeights}, c.tsv, q.tsq) DESC, c.ordinal LIMIT 1) END AS id
        FROM page p, q
    )
    SELECT ch.i::int AS i, d.name, c.id::text AS id, d.title, d.uri, d.description, c.heading_path,
           ts_headline(CASE d.lang WHEN 'pt' THEN 'docs.docs_pt'::regconfig ELSE 'docs.docs_en'::regconfig END,
                       replace(replace(replace(c.text, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'),
                       websearch_to_tsquery(CASE d.lang WHEN 'pt' THEN 'docs.docs_pt'::regconfig ELSE 'docs.docs_en'::regconfig END, ${query}),
                       ${headlineOptions}) AS excerpt
      FROM chosen ch JOIN chunks c ON c.id = ch.id JOIN documents d ON d.name = ch.name
     ORDER BY ch.i`;
  return rows.map((row) => {
    const excerpt = excerptOf(row.excerpt).trim() || row.description;
    const where = row.heading_path.length ? `${row.heading_path.join(" › ")}\n\n` : "";
    return { parent: row.name, id: row.id, title: row.title, uri: row.uri, content: `${where}${excerpt}` };
  });
}
