/**
 * The content words of a question, as answer_query weighs them. The question is read by the same text
 * parser as the documents (so "Pub/Sub", "cloud-native" or "8787" are the tokens the index holds), after
 * misspelt words were corrected against the lexicon. Tokens that are stop words in English or in
 * Portuguese ("how", "the", "como", "para") or mere question phrasing ("happens", "acontece") are
 * dropped; each remaining term gets its stems in both languages and an inverse document frequency
 * (rare words weigh more; a word no document holds weighs most).
 */
import type { DocsDb } from "../db/client.js";
import { correctQuery } from "./corrections.js";
import { fold, plainWords } from "./words.js";

export interface QueryTerm {
  /** The token's words, folded and joined by single spaces ("pub sub" for Pub/Sub). */
  words: string;
  stems: string[];
  documents: number;
  idf: number;
}

const phrasing = new Set(
  (
    "happen happens happened mean means please possible way ways tell explain want wants need needs " +
    "acontece acontecer significa preciso precisa quero quer possivel jeito forma maneira explique explicar diga favor devo posso consigo"
  ).split(" "),
);
const parts = new Set(["blank", "hword_part", "hword_asciipart", "hword_numpart"]);

export async function queryTerms(db: DocsDb, question: string): Promise<{ terms: QueryTerm[]; corpusSize: number }> {
  const text = (await correctQuery(db, question))?.query ?? question;
  const tokens = await db.$queryRaw<{ token: string; alias: string; en: string[] | null; pt: string[] | null }[]>`
    SELECT en.token, en.alias, en.lexemes AS en, pt.lexemes AS pt
      FROM ts_debug('docs.docs_en', ${text}) WITH ORDINALITY AS en(alias, description, token, dictionaries, dictionary, lexemes, i)
      JOIN ts_debug('docs.docs_pt', ${text}) WITH ORDINALITY AS pt(alias, description, token, dictionaries, dictionary, lexemes, i) USING (i)`;
  const content = new Map<string, { words: string; stems: string[] }>();
  for (const token of tokens) {
    const words = plainWords(token.token);
    if (parts.has(token.alias) || !token.en?.length || !token.pt?.length || !words || phrasing.has(fold(token.token))) continue;
    const entry = content.get(words) ?? { words, stems: [] };
    entry.stems = [...new Set([...entry.stems, ...token.en, ...token.pt])];
    content.set(words, entry);
  }
  const all = [...new Set([...content.keys()].flatMap((words) => words.split(" ")))];
  const [counts] = await db.$queryRaw<{ words: string[]; counts: number[]; corpus: number }[]>`
    SELECT coalesce(array_agg(word), '{}') AS words, coalesce(array_agg(doc_count), '{}') AS counts, (SELECT count(*) FROM documents)::int AS corpus
      FROM lexicon WHERE word = ANY(${all}::text[])`;
  const frequency = new Map((counts?.words ?? []).map((word, index) => [word, counts?.counts[index] ?? 0]));
  const corpusSize = counts?.corpus ?? 0;
  const terms = [...content.values()].map((term) => {
    // A token of several words (Pub/Sub) is as rare as its rarest word.
    const documents = Math.min(...term.words.split(" ").map((word) => frequency.get(word) ?? 0));
    return { ...term, documents, idf: Math.max(0.1, Math.log((corpusSize + 1) / (documents + 0.5))) };
  });
  return { terms, corpusSize };
}

/** A tsquery matching any stem of the terms; stems are single lexemes, quoted for tsquery syntax. */
export function anyStem(terms: QueryTerm[]): string {
  return terms.flatMap((term) => term.stems.map((stem) => `'${stem.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`)).join(" | ");
}
