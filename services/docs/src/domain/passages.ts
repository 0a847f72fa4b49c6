/**
 * The passages answer_query may quote: chunks holding the question's terms, scored by coverage (the
 * share of the question's weight, by IDF, that the chunk's title, headings and text contain) and then
 * by cover density; only passages that reach the threshold are returned. Only chunks that can reach it
 * are candidates (see candidate-query.ts); every term still counts in coverage. Terms no document holds
 * count in the question's weight and so lower every passage's coverage: that is how an unrelated
 * question fails.
 * Cost: each candidate's vector is detoasted once (`tsv || ''`) instead of once per term test, and
 * cover density is computed only for the chunks tied with the last of the top or above it.
 */
import type { DocsDb } from "../db/client.js";
import { candidateQuery, rankQuery } from "./candidate-query.js";
import { anyStem, type QueryTerm } from "./query-terms.js";

export interface Passage {
  id: string;
  name: string;
  title: string;
  uri: string;
  headingPath: string[];
  text: string;
  coverage: number;
}

const candidatesMax = 12;

export async function findPassages(db: DocsDb, terms: QueryTerm[], corpusSize: number, threshold: number): Promise<Passage[]> {
  if (!terms.length || corpusSize === 0) return [];
  const total = terms.reduce((sum, term) => sum + term.idf, 0);
  const pick = candidateQuery(terms, threshold);
  const rank = rankQuery(terms, threshold);
  // Chunks holding every term have the highest coverage there is: when there are enough of them to
  // fill the top, no other chunk can enter it, and only they are scored and ranked.
  const everyTerm = terms.map((term) => `( ${anyStem([term])} )`).join(" & ");
  // Below this sum a chunk cannot qualify; the margin leaves the exact decision to `coverage` below.
  const least = threshold * total * (1 - 1e-9);
  const rows = await db.$queryRaw<
    { id: string; name: string; title: string; uri: string; heading_path: string[]; text: string; covered: number }[]
  >`
    WITH terms AS MATERIALIZED (
      SELECT q::tsquery AS q, idf FROM unnest(${terms.map((term) => anyStem([term]))}::text[], ${terms.map((term) => term.idf)}::float8[]) AS t(q, idf)
    ),
    whole AS MATERIALIZED (SELECT c.id FROM chunks c WHERE c.tsv @@ ${everyTerm}::tsquery),
    enough AS MATERIALIZED (SELECT count(*) >= ${candidatesMax} AS yes FROM (SELECT 1 FROM whole LIMIT ${candidatesMax}) w),
    candidates AS MATERIALIZED (
      SELECT c.id, c.tsv || ''::tsvector AS tsv FROM whole JOIN chunks c ON c.id = whole.id WHERE (SELECT yes FROM enough)
      UNION ALL
      SELECT c.id, c.tsv || ''::tsvector AS tsv FROM chunks c WHERE c.tsv @@ ${pick}::tsquery AND NOT (SELECT yes FROM enough)
    ),
    scored AS MATERIALIZED (
      SELECT id, tsv, (SELECT coalesce(sum(t.idf), 0) FROM terms t WHERE candidates.tsv @@ t.q)::float8 AS covered
        FROM candidates
    ),
    qualified AS MATERIALIZED (SELECT id, tsv, covered FROM scored WHERE covered >= ${least}),
    cut AS (SELECT covered FROM qualified ORDER BY covered DESC LIMIT 1 OFFSET ${candidatesMax - 1}),
    top AS (
      SELECT id, covered, ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', tsv, ${rank}::tsquery, 1) AS r
        FROM qualified WHERE covered >= coalesce((SELECT covered FROM cut), 0)
       ORDER BY covered DESC, r DESC, id LIMIT ${candidatesMax}
    )
    SELECT top.id::text AS id, c.document_name AS name, d.title, d.uri, c.heading_path, c.text, top.covered
      FROM top JOIN chunks c ON c.id = top.id JOIN documents d ON d.name = c.document_name
     ORDER BY top.covered DESC, top.r DESC, top.id`;
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    title: row.title,
    uri: row.uri,
    headingPath: row.heading_path,
    text: row.text,
    coverage: total > 0 ? row.covered / total : 0,
  }));
}
