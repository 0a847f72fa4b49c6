/**
 * The passages answer_query may quote: chunks holding any of the question's terms, scored by coverage
 * (the share of the question's weight, by IDF, that the chunk's title, headings and text contain) and
 * then by cover density. Only chunks that can reach the threshold are candidates (see candidateQuery);
 * every term still counts in coverage. Terms no document holds count in the question's weight and so
 * lower every passage's coverage: that is how an unrelated question fails.
 */
import type { DocsDb } from "../db/client.js";
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
  const pick = candidateQuery(terms, total, threshold);
  const rows = await db.$queryRaw<{ id: string; name: string; title: string; uri: string; heading_path: string[]; text: string; covered: number }[]>`
    WITH terms AS MATERIALIZED (
      SELECT q::tsquery AS q, idf FROM unnest(${terms.map((term) => anyStem([term]))}::text[], ${terms.map((term) => term.idf)}::float8[]) AS t(q, idf)
    ),
    scored AS (
      SELECT c.id, (SELECT coalesce(sum(t.idf), 0) FROM terms t WHERE c.tsv @@ t.q)::float8 AS covered,
             ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', c.tsv, ${pick}::tsquery, 1) AS r
        FROM chunks c WHERE c.tsv @@ ${pick}::tsquery
    ),
    top AS (SELECT * FROM scored ORDER BY covered DESC, r DESC, id LIMIT ${candidatesMax})
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

/**
 * Which chunks can reach the threshold at all, as a tsquery (exact pruning: no passage that could
 * qualify is left out). A term whose weight alone is more than the share a passage may miss is
 * mandatory: then candidates must hold every mandatory term. Otherwise they must hold one of the
 * rarest terms, as few as possible, chosen so that a passage holding none of them falls short.
 */
function candidateQuery(terms: QueryTerm[], total: number, threshold: number): string {
  const mandatory = terms.filter((term) => total - term.idf < threshold * total);
  if (mandatory.length) return mandatory.map((term) => `( ${anyStem([term])} )`).join(" & ");
  const byWeight = [...terms].sort((a, b) => b.idf - a.idf);
  const necessary: QueryTerm[] = [];
  let left = total;
  for (const term of byWeight) {
    necessary.push(term);
    left -= term.idf;
    if (left < threshold * total) break;
  }
  return anyStem(necessary);
}
