/**
 * The ranking queries of search_documents, in two tiers, so that common words stay cheap:
 *
 * 1. Head matches: pages whose head (title A, headings B, description C) matches the whole query,
 *    ranked by cover density on that small vector, plus 10 when the title equals the query (case and
 *    accents aside: a page's exact title finds it first) and up to 1 for title similarity.
 * 2. Body matches: the other pages with a section (chunk) matching the query, ranked by their best
 *    section (ts_rank, with the fields' weights of fields.ts).
 *
 * Tier 1 comes before tier 2, and tier 2 is only computed when a page of results reaches it.
 * Words excluded with `-word` exclude the whole page, not only the sections that mention them.
 */
import { Prisma } from "../../db/generated/client.js";
import type { DocsDb } from "../../db/client.js";
import type { PageCursor } from "../page-token.js";
import { rankWeights } from "./fields.js";

export interface Hit {
  tier: 1 | 2;
  name: string;
  /** The best section when the tier already knows it (tier 2); chosen later for tier 1. */
  chunk: string | null;
  score_text: string;
}

function after(cursor: PageCursor | undefined): Prisma.Sql {
  return cursor
    ? Prisma.sql`(score < ${cursor.score}::float8 OR (score = ${cursor.score}::float8 AND name > ${cursor.name}))`
    : Prisma.sql`TRUE`;
}

function readQuery(query: string): Prisma.Sql {
  return Prisma.sql`q AS MATERIALIZED (SELECT docs.web_query(${query}) AS tsq, docs.fold(btrim(${query})) AS folded)`;
}

/** Pages holding an excluded word anywhere; no clause at all without exclusions (the planner cannot see a NULL through a CTE). */
function notVetoed(column: Prisma.Sql, query: string): Prisma.Sql {
  const veto = excludedTerms(query);
  return veto
    ? Prisma.sql`AND ${column} NOT IN (SELECT x.document_name FROM chunks x WHERE x.tsv @@ docs.web_query(${veto}))`
    : Prisma.empty;
}

/** Pages already listed by the question ranking (see search-documents.ts); no clause at all when there are none. */
function notListed(column: Prisma.Sql, listed: string[]): Prisma.Sql {
  return listed.length ? Prisma.sql`AND NOT (${column} = ANY(${listed}::text[]))` : Prisma.empty;
}

export function headHits(db: DocsDb, query: string, cursor: PageCursor | undefined, limit: number, listed: string[] = []): Promise<Hit[]> {
  return db.$queryRaw<Hit[]>`
    WITH ${readQuery(query)},
    scored AS (
      SELECT d.name,
             (ts_rank_cd(${rankWeights}, d.head, q.tsq) + CASE WHEN docs.fold(d.title) = q.folded THEN 10 ELSE 0 END
               + similarity(docs.fold(d.title), q.folded))::float8 AS score
        FROM documents d, q
       WHERE d.head @@ q.tsq ${notVetoed(Prisma.sql`d.name`, query)} ${notListed(Prisma.sql`d.name`, listed)}
    )
    SELECT 1 AS tier, name, NULL::text AS chunk, score::text AS score_text FROM scored
     WHERE ${after(cursor)} ORDER BY score DESC, name LIMIT ${limit}`;
}

export function bodyHits(db: DocsDb, query: string, cursor: PageCursor | undefined, limit: number, listed: string[] = []): Promise<Hit[]> {
  // Pages first (the bitmap alone, no ranking), head matches dropped, then only their sections ranked.
  // The head test is a subquery per matched page (its primary key): as an anti-join the planner scanned
  // every document's head instead.
  return db.$queryRaw<Hit[]>`
    WITH ${readQuery(query)},
    matched AS MATERIALIZED (SELECT DISTINCT c.document_name AS name FROM chunks c, q WHERE c.tsv @@ q.tsq),
    body_only AS MATERIALIZED (
      SELECT m.name FROM matched m, q
       WHERE NOT (SELECT d.head @@ q.tsq FROM documents d WHERE d.name = m.name) ${notVetoed(Prisma.sql`m.name`, query)}
             ${notListed(Prisma.sql`m.name`, listed)}
    ),
    hits AS (
      SELECT c.id, c.document_name, ts_rank(${rankWeights}, c.tsv, q.tsq) AS r
        FROM chunks c, q WHERE c.document_name IN (SELECT name FROM body_only) AND c.tsv @@ q.tsq
    ),
    scored AS (
      SELECT DISTINCT ON (document_name) document_name AS name, id, r::float8 AS score FROM hits ORDER BY document_name, r DESC, id
    )
    SELECT 2 AS tier, name, id::text AS chunk, score::text AS score_text FROM scored
     WHERE ${after(cursor)} ORDER BY score DESC, name LIMIT ${limit}`;
}

/** The `-word` and `-"phrase"` parts of a web-search query, as one OR query; null when there are none. */
export function excludedTerms(query: string): string | null {
  const terms = [...query.matchAll(/(?:^|\s)-("[^"]*"|[^\s"]+)/g)].map((match) => match[1]!).filter((term) => /[\p{L}\p{N}]/u.test(term));
  return terms.length ? terms.join(" OR ") : null;
}

/** Last resort: titles that resemble the query by trigram word similarity. */
export function fuzzyHits(db: DocsDb, query: string, cursor: PageCursor | undefined, limit: number): Promise<Hit[]> {
  return db.$queryRaw<Hit[]>`
    WITH scored AS (
      SELECT d.name, word_similarity(${query}, d.title)::float8 AS score FROM documents d WHERE ${query} <% d.title
    )
    SELECT 1 AS tier, name, NULL::text AS chunk, score::text AS score_text FROM scored
     WHERE ${after(cursor)} ORDER BY score DESC, name LIMIT ${limit}`;
}
