/**
 * The fields of a page that ranking reads, and what a question's word found in each is worth: the one
 * description both rankers use.
 * - SQL (search_documents' tiers, the pick of answer_query's candidates, the section shown for a page)
 *   ranks the weighted vectors `chunks.tsv` and `documents.head`, each field under its letter; ts_rank
 *   and ts_rank_cd read the weights as `rankWeights`.
 * - rank-passages.ts scores answer_query's candidate passages on their words with the same weights.
 * The vectors are built here too (`fieldVector`), so that which text goes under which letter is decided
 * in one place; migrations only create the text-search configurations and the columns.
 */
import { Prisma } from "../../db/generated/client.js";

export const fields = {
  /** The page's title: a command's or a function's name is its title. */
  title: { label: "A", weight: 1 },
  /** The section's heading path (a chunk), or all the page's headings (a page's head). */
  heading: { label: "B", weight: 0.85 },
  /** The page's description (front matter, else its first paragraph): on the first chunk only. */
  description: { label: "C", weight: 0.7 },
  body: { label: "D", weight: 0.35 },
} as const;

export type Field = keyof typeof fields;
export const fieldNames = Object.keys(fields) as Field[];

/** ts_rank's and ts_rank_cd's weight array, in their order {D, C, B, A}, as an SQL literal. */
export const rankWeights = Prisma.raw(
  `'{${(["body", "description", "heading", "title"] as const).map((field) => fields[field].weight).join(", ")}}'::float4[]`,
);

/**
 * Every text-search configuration a page is read with: a question's language is unknown, so each page is
 * indexed in both, and a query is the OR of both readings (docs.web_query). docs_en strips accents then
 * stems in English; docs_pt stems in Portuguese on the accented words (Snowball needs the accents).
 */
const configurations = ["docs.docs_en", "docs.docs_pt"] as const;

/** The weighted vector of the given fields' texts (SQL expressions; a missing field is empty). */
export function fieldVector(texts: Partial<Record<Field, Prisma.Sql>>): Prisma.Sql {
  const parts = configurations.flatMap((configuration) =>
    fieldNames
      .filter((field) => texts[field])
      .map(
        (field) =>
          Prisma.sql`setweight(to_tsvector(${Prisma.raw(`'${configuration}'`)}, coalesce(${texts[field]!}, '')), ${Prisma.raw(`'${fields[field].label}'`)})`,
      ),
  );
  return Prisma.join(parts, " || ");
}
