/**
 * A question's word expanded with the names the corpus defines with it (definitions.ts): "remove" also
 * finds the page named `npm-prune`, whose description says "This command removes extraneous packages".
 * The names are read in the round trip that already reads the words' counts (query-terms.ts) and join the
 * word's synonyms as learned ones. answer-query.ts asks for them only when no passage holds the whole
 * question in its own words, and only through pages' titles (asked beside the first reading); they count
 * only in titles and headings, for less than the word in a body (`learnedShare`), never alone, both in
 * the coverage that picks candidates (ranking/passages.ts) and in the word ranking (rank-passages.ts).
 * A word is matched by its inflections ("removes" in a definition for "remove" in a question).
 * Which names are kept is a rule on the corpus alone, never on questions:
 * - a name many pages hold (`npm`, `fs`) tells nothing about the word: only names at most
 *   `nameShareMax` of the pages hold; nor does a word many pages hold ("current", "new") define anything
 *   in particular: only words at most `wordShareMax` of the pages hold are expanded, through their
 *   inflections as rare ("versions", not "version" when every page says "version");
 * - the most specific first, by lift (below); at most `namesPerWord`.
 * What was measured for each choice is in docs/docs.md (Answer quality).
 */
import { Prisma } from "../../db/generated/client.js";

const namesPerWord = 2;
const nameShareMax = 0.1;
/** A word on more than this share of the pages is in too many definitions to say which name it stands for. */
const wordShareMax = 0.3;

/**
 * One row of learnedNamesSql: the question's word, a name, the pages defining the name with the word, the
 * pages holding the name, its stems, the pages holding the word.
 */
export type LearnedRow = [word: string, name: string, pages: number, documents: number, stems: string[], wordDocuments: number];

export interface LearnedName {
  words: string;
  stems: string[];
}

/**
 * The SQL expression (a JSON array of LearnedRow) reading the names defined with each of `words`,
 * leaving out names that are words of the question (`known`) or inflections of them ("install" for
 * "installing"): they would count the same word twice. `stemColumn` and `stemOf` say
 * how a word's inflections are found, as for the question's own words.
 */
export function learnedNamesSql(words: string[], known: string[], stemColumn: Prisma.Sql, stemOf: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT coalesce(json_agg(json_build_array(k, name, pages, documents, stems, word_documents)), '[]') FROM (
      SELECT x.k, x.name, x.pages, n.doc_count AS documents, x.word_documents,
             tsvector_to_array(to_tsvector('docs.docs_en', x.name) || to_tsvector('docs.docs_pt', x.name)) AS stems
        FROM (
          SELECT k, v.name, count(DISTINCT v.document_name)::int AS pages, max(w.doc_count) AS word_documents
            FROM unnest(${words}::text[]) AS k
            JOIN lexicon w ON w.word = k AND w.doc_count <= ${wordShareMax}::float8 * (SELECT count(*) FROM documents)
            JOIN lexicon l ON l.${stemColumn} = ${stemOf} AND l.doc_count <= ${wordShareMax}::float8 * (SELECT count(*) FROM documents)
            JOIN vocabulary v ON v.word = l.word
           GROUP BY k, v.name
        ) x
        JOIN lexicon n ON n.word = x.name
       WHERE n.doc_count <= ${nameShareMax}::float8 * (SELECT count(*) FROM documents)
         AND n.${stemColumn} <> ALL(ARRAY(SELECT ${stemOf} FROM unnest(${known}::text[]) AS k))
    ) y)`;
}

/** The names kept for each word (see the rule above). */
export function learnedNames(rows: LearnedRow[], corpusSize: number): Map<string, LearnedName[]> {
  const byWord = new Map<string, LearnedRow[]>();
  for (const row of rows) {
    const [word, , , documents, stems] = row;
    if (!stems.length || documents > nameShareMax * corpusSize) continue;
    byWord.set(word, [...(byWord.get(word) ?? []), row]);
  }
  const kept = new Map<string, LearnedName[]>();
  for (const [word, names] of byWord) {
    names.sort((a, b) => lift(b, corpusSize) - lift(a, corpusSize) || b[2] - a[2] || a[3] - b[3] || (a[1] < b[1] ? -1 : 1));
    kept.set(
      word,
      names.slice(0, namesPerWord).map(([, name, , , stems]) => ({ words: name, stems })),
    );
  }
  return kept;
}

/**
 * How much more often the word defines the name than chance would pair them: pages(word, name) × N /
 * (pages holding the name × pages holding the word), a pointwise mutual information read from the
 * lexicon's counts (no scan of the vocabulary beyond the question's words).
 */
function lift(row: LearnedRow, corpusSize: number): number {
  const [, , pages, documents, , wordDocuments] = row;
  return (pages * corpusSize) / Math.max(1, documents * wordDocuments);
}
