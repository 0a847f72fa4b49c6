/**
 * Typo correction against the corpus's own words. A query word that no document contains is replaced
 * by the closest lexicon word: by edit distance (transpositions like "dcoker" → "docker" keep few
 * trigrams) among words with the same first letter, or by trigram similarity (the GIN index) for
 * mistakes in the first letter. Ties go to the word more documents use. Stop words of either language
 * ("como", "quais", "whom") are never corrected: the corpus may lack them, and a stop word turned into a
 * real word ("como" → "cormo") would change what the question asks. Nor is the curated filler that phrases a
 * question ("faço" → "fact" turned "como faço login…" into a question about facts).
 */
import type { DocsDb } from "../db/client.js";
import { isFiller } from "./question-words.js";
import { fold, plainWords } from "./words.js";

export interface Correction {
  from: string;
  to: string;
}

interface TypedWord {
  start: number;
  end: number;
  /** As typed: the stop-word lists of docs_pt know accented forms ("tivéssemos"), not folded ones. */
  typed: string;
  folded: string;
}

/** Words worth correcting: 4+ letters, not a number, not filler, not excluded with `-`, not the OR operator. */
function correctableWords(query: string): TypedWord[] {
  const words: TypedWord[] = [];
  for (const match of query.matchAll(/[\p{L}\p{N}]+/gu)) {
    const folded = fold(match[0]);
    const excluded = query[match.index - 1] === "-";
    if (
      folded.length >= 4 &&
      folded.length <= 40 &&
      !/^\d+$/.test(folded) &&
      !excluded &&
      match[0] !== "OR" &&
      !isFiller(plainWords(folded))
    ) {
      words.push({ start: match.index, end: match.index + match[0].length, typed: match[0], folded });
    }
  }
  return words;
}

/** The closest lexicon word for each folded word that no document holds and that is no stop word as typed. */
async function closestWords(db: DocsDb, words: { typed: string; folded: string }[]): Promise<Map<string, string>> {
  if (!words.length) return new Map();
  const rows = await db.$queryRaw<{ typed: string; fixed: string }[]>`
    WITH unknown AS MATERIALIZED (
      SELECT DISTINCT w AS word FROM unnest(${words.map((word) => word.folded)}::text[], ${words.map((word) => word.typed)}::text[]) AS t(w, typed)
       WHERE NOT EXISTS (SELECT 1 FROM lexicon x WHERE x.word = w)
         AND to_tsvector('docs.docs_en', typed) <> ''::tsvector
         AND to_tsvector('docs.docs_pt', typed) <> ''::tsvector
    )
    SELECT q.word AS typed, best.word AS fixed
      FROM unknown q
     CROSS JOIN LATERAL (
       SELECT l.word FROM (
         SELECT word, doc_count FROM lexicon WHERE word % q.word
         UNION
         SELECT word, doc_count FROM lexicon
          WHERE word >= left(q.word, 1) AND word < chr(ascii(left(q.word, 1)) + 1)
            AND length(word) BETWEEN length(q.word) - 2 AND length(q.word) + 2
       ) l
       WHERE levenshtein_less_equal(l.word, q.word, 2) <= CASE WHEN length(q.word) >= 6 THEN 2 ELSE 1 END
          OR similarity(l.word, q.word) >= 0.45
       ORDER BY levenshtein_less_equal(l.word, q.word, 3), similarity(l.word, q.word) DESC, l.doc_count DESC, l.word
       LIMIT 1
     ) best`;
  return new Map(rows.map((row) => [row.typed, row.fixed]));
}

/** The query with its unknown words replaced, or undefined when there is nothing to correct. */
export async function correctQuery(db: DocsDb, query: string): Promise<{ query: string; corrections: Correction[] } | undefined> {
  const typed = correctableWords(query);
  const fixes = await closestWords(db, typed);
  if (!fixes.size) return undefined;
  let out = "";
  let at = 0;
  const corrections: Correction[] = [];
  for (const word of typed) {
    const fixed = fixes.get(word.folded);
    if (!fixed) continue;
    out += query.slice(at, word.start) + fixed;
    at = word.end;
    corrections.push({ from: query.slice(word.start, word.end), to: fixed });
  }
  return { query: out + query.slice(at), corrections };
}

/** `query` with the corrections made to it (or to a reading of it) applied, each word as a whole word. */
export function withCorrections(query: string, corrections: Correction[]): string {
  return corrections.reduce(
    (text, { from, to }) =>
      text.replace(new RegExp(`(?<![\\p{L}\\p{N}])${from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}])`, "gu"), to),
    query,
  );
}
