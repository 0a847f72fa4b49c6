/**
 * The passages answer_query may quote, found in two steps:
 * 1. SQL (GIN index): chunks holding enough of the question's weight — coverage, the share of the terms'
 *    weight the chunk's title, headings, description or text contain, at least the threshold. Only chunks
 *    that can reach it are candidates (see candidate-query.ts); the best `candidatesMax` by a weighted
 *    coverage (a term in the page's head, title/headings/description, counts twice a term in the body)
 *    and cover density are read with their text.
 * 2. rank-passages.ts scores those few on their words: exact words above stems, head above body, the
 *    question's words close together above scattered ones.
 * Terms no document holds count in the question's weight and so lower every passage's coverage: that is
 * how an unrelated question fails.
 * Cost: each candidate's vector is detoasted once (`tsv || ''`) instead of once per term test and never
 * stored (the CTEs keep numbers only), and cover density is computed only for the chunks tied with the
 * last of the top or above it.
 */
import type { DocsDb } from "../../db/client.js";
import { candidateQuery, rankQuery } from "./candidate-query.js";
import { Prisma } from "../../db/generated/client.js";
import { rankWeights } from "./fields.js";
import { learnedShare } from "./rank-passages.js";
import { anyStem, type QueryTerm } from "../query-terms.js";

export interface Passage {
  id: string;
  name: string;
  title: string;
  uri: string;
  description: string;
  ordinal: number;
  headingPath: string[];
  anchor: string;
  text: string;
  /** Share of the question's weight the chunk holds anywhere (stems and synonyms included), 0–1. */
  coverage: number;
  /** Found through its page's head (see headPassages): coverage counts the page's title, headings and description. */
  viaHead: boolean;
}

const candidatesMax = 60;
/**
 * What a term found in `vector` counts for: its weight through its own words (or curated synonyms); through
 * a learned name only `learnedShare` of it (the strength the word ranking gives it), so a section whose
 * heading names `stat` does not crowd out one that says "time"; and nothing when the text holds none of
 * the question's own words (`own`): a learned name alone never makes a candidate.
 */
function heldWeight(vector: Prisma.Sql, own: string): Prisma.Sql {
  return Prisma.sql`CASE WHEN ${vector} @@ t.o THEN t.w WHEN ${vector} @@ ${own}::tsquery THEN t.w * ${learnedShare} ELSE 0 END`;
}
const wholeEnough = 5 * candidatesMax;

export async function findPassages(db: DocsDb, terms: QueryTerm[], corpusSize: number, threshold: number): Promise<Passage[]> {
  if (!terms.length || corpusSize === 0) return [];
  const total = terms.reduce((sum, term) => sum + term.weight, 0);
  const pick = candidateQuery(terms, threshold);
  const rank = rankQuery(terms, threshold);
  // Chunks holding every term have the highest coverage there is: when there are many of them (far more
  // than the top: ranking on words may still prefer a chunk that lacks a light term), only they are scored.
  // (by their own words: a learned name counts for less, so holding it is not the highest coverage).
  const everyTerm = terms.map((term) => `( ${anyStem([term], "", { learned: false })} )`).join(" & ");
  // Below this sum a chunk cannot qualify; the margin leaves the exact decision to `coverage` below.
  const least = threshold * total * (1 - 1e-9);
  const held = heldWeight(Prisma.sql`x.v`, anyStem(terms, "", { learned: false }));
  const rows = await db.$queryRaw<PassageRow[]>`
    WITH terms AS MATERIALIZED (
      SELECT q::tsquery AS q, o::tsquery AS o, h::tsquery AS h, w
        FROM unnest(${terms.map((term) => anyStem([term]))}::text[], ${terms.map((term) => anyStem([term], "", { learned: false }))}::text[],
                    ${terms.map((term) => anyStem([term], "ABC"))}::text[], ${terms.map((term) => term.weight)}::float8[]) AS t(q, o, h, w)
    ),
    whole AS MATERIALIZED (SELECT c.id FROM chunks c WHERE c.tsv @@ ${everyTerm}::tsquery),
    enough AS MATERIALIZED (SELECT count(*) >= ${wholeEnough} AS yes FROM (SELECT 1 FROM whole LIMIT ${wholeEnough}) w),
    picked AS (
      SELECT c.id, c.tsv FROM whole JOIN chunks c ON c.id = whole.id WHERE (SELECT yes FROM enough)
      UNION ALL
      SELECT c.id, c.tsv FROM chunks c WHERE c.tsv @@ ${pick}::tsquery AND NOT (SELECT yes FROM enough)
    ),
    -- Only numbers are kept, not the vectors: a few hundred detoasted vectors overflow work_mem and the
    -- CTE then goes through a temporary file.
    scored AS MATERIALIZED (
      SELECT p.id, s.covered, s.covered + s.headed AS weighted
        FROM picked p
       CROSS JOIN LATERAL (SELECT p.tsv || ''::tsvector AS v OFFSET 0) x
       CROSS JOIN LATERAL (
         SELECT coalesce(sum(${held}), 0)::float8 AS covered, coalesce(sum(${held}) FILTER (WHERE x.v @@ t.h), 0)::float8 AS headed
           FROM terms t WHERE x.v @@ t.q
       ) s
    ),
    qualified AS MATERIALIZED (SELECT id, covered, weighted FROM scored WHERE covered >= ${least}),
    cut AS (SELECT weighted FROM qualified ORDER BY weighted DESC LIMIT 1 OFFSET ${candidatesMax - 1}),
    top AS (
      SELECT q.id, q.covered, q.weighted, ts_rank_cd(${rankWeights}, c.tsv, ${rank}::tsquery, 1) AS r
        FROM qualified q JOIN chunks c ON c.id = q.id WHERE q.weighted >= coalesce((SELECT weighted FROM cut), 0)
       ORDER BY q.weighted DESC, r DESC, q.id LIMIT ${candidatesMax}
    )
    SELECT top.id::text AS id, c.document_name AS name, d.title, d.uri, d.description, c.ordinal, c.heading_path, c.anchor, c.text, top.covered
      FROM top JOIN chunks c ON c.id = top.id JOIN documents d ON d.name = c.document_name
     ORDER BY top.weighted DESC, top.r DESC, top.id`;
  return rows.map((row) => toPassage(row, total, false));
}

/** Pages whose head may answer though no single chunk holds enough of the question. */
const headPagesMax = 8;
const headChunksMax = 3;

/**
 * The passages of pages whose title names one of the question's terms and whose head (title, headings,
 * description) with one of its sections holds at least `least` of the question's weight: a command's
 * page ("npm-deprecate: Deprecate a version of a package") answers "how do I mark a published version
 * as deprecated" while holding neither "mark" nor "published". Coverage here counts the page's head.
 */
export async function headPassages(db: DocsDb, terms: QueryTerm[], least: number): Promise<Passage[]> {
  const content = terms.filter((term) => !term.filler);
  if (!content.length) return [];
  const total = terms.reduce((sum, term) => sum + term.weight, 0);
  const own = anyStem(terms, "", { learned: false });
  const rows = await db.$queryRaw<PassageRow[]>`
    WITH terms AS MATERIALIZED (
      SELECT q::tsquery AS q, o::tsquery AS o, a::tsquery AS a, w
        FROM unnest(${terms.map((term) => anyStem([term]))}::text[], ${terms.map((term) => anyStem([term], "", { learned: false }))}::text[],
                    ${terms.map((term) => anyStem([term], "A"))}::text[], ${terms.map((term) => term.weight)}::float8[]) AS t(q, o, a, w)
    ),
    -- Titles through their own index (title_tsv): the head's index cannot tell a title from a heading.
    pages AS MATERIALIZED (
      SELECT d.name, d.head || ''::tsvector AS head FROM documents d WHERE d.title_tsv @@ ${anyStem(content, "", { titles: true })}::tsquery
    ),
    headed AS MATERIALIZED (
      SELECT p.name, p.head, s.covered, s.titled
        FROM pages p CROSS JOIN LATERAL (
          SELECT coalesce(sum(${heldWeight(Prisma.sql`p.head`, own)}), 0)::float8 AS covered,
                 coalesce(sum(t.w) FILTER (WHERE p.head @@ t.a), 0)::float8 AS titled
            FROM terms t WHERE p.head @@ t.q
        ) s
    ),
    -- The terms in the title count twice: the page is about them.
    best AS (SELECT name, head FROM headed WHERE covered > 0 ORDER BY covered + titled DESC, name LIMIT ${headPagesMax * 2}),
    -- Materialized, and each chunk's vector detoasted once: the window below sorts on covered, and
    -- unmaterialized the planner computed it twice, reading the vector again for every term.
    sections AS MATERIALIZED (
      SELECT c.id, c.document_name, c.ordinal,
             -- A learned name counts in the section's own title and headings, not in the page's other headings.
             (SELECT coalesce(sum(CASE WHEN x.v @@ t.o OR b.head @@ t.o THEN t.w
                                       WHEN x.v @@ t.q AND (x.v || b.head) @@ ${own}::tsquery THEN t.w * ${learnedShare} ELSE 0 END), 0)
                FROM terms t WHERE x.v @@ t.q OR b.head @@ t.q)::float8 AS covered
        FROM best b JOIN chunks c ON c.document_name = b.name
       CROSS JOIN LATERAL (SELECT c.tsv || ''::tsvector AS v OFFSET 0) x
    ),
    ranked AS (
      SELECT id, document_name, covered, row_number() OVER (PARTITION BY document_name ORDER BY covered DESC, ordinal) AS n,
             max(covered) OVER (PARTITION BY document_name) AS page_covered
        FROM sections
    ),
    chosen AS (
      SELECT id, covered FROM ranked
       WHERE n <= ${headChunksMax} AND covered >= ${least * total * (1 - 1e-9)}
         AND document_name IN (SELECT document_name FROM ranked WHERE n = 1 ORDER BY page_covered DESC, document_name LIMIT ${headPagesMax})
    )
    SELECT ch.id::text AS id, c.document_name AS name, d.title, d.uri, d.description, c.ordinal, c.heading_path, c.anchor, c.text, ch.covered
      FROM chosen ch JOIN chunks c ON c.id = ch.id JOIN documents d ON d.name = c.document_name`;
  return rows.map((row) => toPassage(row, total, true));
}

/** One row of either query: a chunk with its page, and the question's weight it covers. */
interface PassageRow {
  id: string;
  name: string;
  title: string;
  uri: string;
  description: string;
  ordinal: number;
  heading_path: string[];
  anchor: string;
  text: string;
  covered: number;
}

function toPassage(row: PassageRow, total: number, viaHead: boolean): Passage {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    uri: row.uri,
    description: row.description,
    ordinal: row.ordinal,
    headingPath: row.heading_path,
    anchor: row.anchor,
    text: row.text,
    coverage: total > 0 ? row.covered / total : 0,
    viaHead,
  };
}
