/**
 * The content words of a question, as answer_query weighs them. The question is read by the same text
 * parser as the documents (so "Pub/Sub", "cloud-native" or "8787" are the tokens the index holds), after
 * known phrases were joined ("sign in" → login) and misspelt words corrected against the lexicon.
 * - Stop words of English or Portuguese ("how", "the", "como", "para") are dropped: no page indexes them.
 * - Filler that phrases a question ("way", "want", "preciso") stays, at a small weight; so do bare numbers.
 * - Each term has its stems in both languages, the synonyms documentation uses for it (with their
 *   stems; a phrase's is its hyphenated compound, "sign-in"), and an inverse document frequency: rare
 *   words weigh more; a word no document holds weighs most.
 */
import type { DocsDb } from "../db/client.js";
import { Prisma } from "../db/generated/client.js";
import { fields } from "./ranking/fields.js";
import { correctQuery, type Correction } from "./corrections.js";
import { languageOf } from "./markdown/describe.js";
import { isFiller, joinPhrases, synonymsOf } from "./question-words.js";
import { learnedNames, learnedNamesSql, type LearnedRow } from "./vocabulary/expansions.js";
import { plainWords, wordsOf } from "./words.js";

export interface QueryTerm {
  /** The token's words, folded and joined by single spaces ("pub sub" for Pub/Sub). */
  words: string;
  /** Its lexemes in both languages: what the text-search index is asked for. */
  stems: string[];
  /**
   * The corpus's words sharing its Snowball stem in the question's language ("deprecated", "deprecates"
   * for "deprecate"): how the word ranking finds its inflections in a passage. A term of several words
   * has its first word's.
   */
  forms: string[];
  /**
   * Synonyms a page may use instead (one word each), with their stems and forms: the curated groups, and
   * the names the corpus defines with the word (`learned`, vocabulary/expansions.ts).
   */
  synonyms: { words: string; stems: string[]; forms: string[]; learned?: boolean }[];
  documents: number;
  idf: number;
  /** What the term counts for in a passage's score: its idf, a fraction of it for filler. */
  weight: number;
  filler: boolean;
}

/** Filler still counts, a little: a question of filler alone cannot match on it. */
const fillerShare = 0.15;
const parts = new Set(["blank", "hword_part", "hword_asciipart", "hword_numpart"]);

export interface QueryReading {
  terms: QueryTerm[];
  corpusSize: number;
  /**
   * The query is worded as a sentence, not as keywords: it holds a stop word of either language ("how",
   * "the", "para") or filler ("way", "preciso"). search_documents leads such a query with the question ranking.
   */
  phrased: boolean;
  /** The misspelt words the reading corrected (see corrections.ts). */
  corrections: Correction[];
}

export async function queryTerms(db: DocsDb, question: string): Promise<QueryReading> {
  const joined = joinPhrases(question);
  // Most questions have nothing to correct: their words are parsed while the lexicon is asked, and parsed
  // again only when a word was corrected (one round trip less for most questions).
  const [corrected, asTyped] = await Promise.all([correctQuery(db, joined), tokensOf(db, joined)]);
  const tokens = corrected ? await tokensOf(db, corrected.query) : asTyped;
  const content = new Map<string, { words: string; stems: string[] }>();
  let stopWords = 0;
  for (const token of tokens) {
    const words = plainWords(token.token);
    if (!parts.has(token.alias) && words && (token.en?.length === 0 || token.pt?.length === 0)) stopWords++;
    if (parts.has(token.alias) || !token.en?.length || !token.pt?.length || !words) continue;
    const entry = content.get(words) ?? { words, stems: [] };
    entry.stems = [...new Set([...entry.stems, ...token.en, ...token.pt])];
    content.set(words, entry);
  }
  const synonyms = [...new Set([...content.keys()].flatMap((words) => synonymsOf(words)))].filter((words) => !content.has(words));
  const all = [...new Set([...content.keys(), ...synonyms].flatMap((words) => words.split(" ")))];
  // Inflections are found in the question's language only: Portuguese stemming of an English word cuts
  // what it reads as a Portuguese suffix. Both languages at once gave the same figures on the three
  // evaluation corpora (docs/docs.md), with more forms to test per word.
  const stemColumn = languageOf(undefined, question) === "pt" ? Prisma.sql`pt_stem` : Prisma.sql`en_stem`;
  const stemOf = languageOf(undefined, question) === "pt" ? Prisma.sql`docs.stem_pt(k)` : Prisma.sql`docs.stem_en(k)`;
  const learnable = [...content.keys()].filter((words) => !words.includes(" ") && !isFiller(words));
  const [counts] = await db.$queryRaw<
    {
      words: string[];
      counts: number[];
      corpus: number;
      synonyms: string[];
      stems: string[];
      forms: [string, string[]][];
      learned: LearnedRow[];
    }[]
  >`
    SELECT coalesce(array_agg(word), '{}') AS words, coalesce(array_agg(doc_count), '{}') AS counts, (SELECT count(*) FROM documents)::int AS corpus,
           ${synonyms}::text[] AS synonyms,
           ARRAY(SELECT array_to_string(ARRAY(
                     SELECT l FROM unnest(tsvector_to_array(to_tsvector('docs.docs_en', h) || to_tsvector('docs.docs_pt', h))) AS l
                      WHERE h = s OR l LIKE '%-%'), ' ')
                   FROM unnest(${synonyms}::text[]) WITH ORDINALITY AS u(s, i), replace(s, ' ', '-') AS h ORDER BY i) AS stems,
           (SELECT coalesce(json_agg(json_build_array(k, f)), '[]') FROM (
              SELECT k, array_agg(l.word) AS f FROM unnest(${all}::text[]) AS k JOIN lexicon l ON l.${stemColumn} = ${stemOf} GROUP BY k
            ) x) AS forms,
           ${learnedNamesSql(learnable, all, stemColumn, stemOf)} AS learned
      FROM lexicon WHERE word = ANY(${all}::text[])`;
  const frequency = new Map((counts?.words ?? []).map((word, index) => [word, counts?.counts[index] ?? 0]));
  const formsOf = new Map(counts?.forms ?? []);
  // A phrase's forms are its first word's: "signing in" says "sign in".
  const formsOfTerm = (words: string) => formsOf.get(words.split(" ")[0]!) ?? [];
  const stemsOf = new Map(synonyms.map((words, index) => [words, (counts?.stems[index] ?? "").split(" ").filter(Boolean)]));
  const corpusSize = counts?.corpus ?? 0;
  const learned = learnedNames(counts?.learned ?? [], corpusSize);
  // A token of several words (Pub/Sub) is as rare as its rarest word.
  const documentsOf = (words: string) => Math.min(...words.split(" ").map((word) => frequency.get(word) ?? 0));
  const terms = [...content.values()].map((term) => {
    const alternatives = synonymsOf(term.words)
      .filter((words) => !content.has(words))
      .map((words) => ({ words, stems: stemsOf.get(words) ?? [], forms: formsOfTerm(words) }))
      .filter((alternative) => alternative.stems.length);
    // A concept is as common as its most common spelling: pages saying "login" answer "sign in" too. A
    // learned name is not a spelling of the word, and leaves its rarity alone.
    const documents = Math.max(documentsOf(term.words), ...alternatives.map((alternative) => documentsOf(alternative.words)));
    const named = (learned.get(term.words) ?? [])
      .filter((name) => !content.has(name.words) && !alternatives.some((alternative) => alternative.words === name.words))
      .map((name) => ({ ...name, forms: [], learned: true }));
    const idf = Math.max(0.1, Math.log((corpusSize + 1) / (documents + 0.5)));
    // A bare number ("the first 10 rows", "one 1 second") is a detail of the question, not its subject:
    // numbers are not in the lexicon, so its rarity is unknown and would otherwise weigh most of all.
    const filler = isFiller(term.words) || /^\d+$/.test(term.words.replace(/ /g, ""));
    // A word no page holds can only meet another word's stem ("pip" is the Portuguese stem of "pipes"):
    // it matches nothing, and its weight says the question is about something the corpus lacks.
    // Numbers are not in the lexicon and keep their stems.
    const absent = documents === 0 && term.words.split(" ").every((word) => wordsOf(word).length > 0);
    const stems = absent ? [] : term.stems;
    const forms = absent ? [] : formsOfTerm(term.words);
    return {
      ...term,
      stems,
      forms,
      synonyms: absent ? [] : [...alternatives, ...named],
      documents,
      idf,
      weight: filler ? idf * fillerShare : idf,
      filler,
    };
  });
  const phrased = stopWords > 0 || terms.some((term) => isFiller(term.words));
  return { terms, corpusSize, phrased, corrections: corrected?.corrections ?? [] };
}

/** The parser's tokens of a text, with their lexemes in each language (null: not a word; empty: a stop word). */
function tokensOf(db: DocsDb, text: string) {
  return db.$queryRaw<{ token: string; alias: string; en: string[] | null; pt: string[] | null }[]>`
    SELECT en.token, en.alias, en.lexemes AS en, pt.lexemes AS pt
      FROM ts_debug('docs.docs_en', ${text}) WITH ORDINALITY AS en(alias, description, token, dictionaries, dictionary, lexemes, i)
      JOIN ts_debug('docs.docs_pt', ${text}) WITH ORDINALITY AS pt(alias, description, token, dictionaries, dictionary, lexemes, i) USING (i)`;
}

/**
 * A tsquery matching any stem of the terms (and of their synonyms); stems are single lexemes, quoted for
 * tsquery syntax. A learned name counts only where it names something, in a title or a heading
 * (`namedWeights`): a page merely mentioning `pack` says nothing about tarballs. A vector of titles alone
 * (`titles`: documents.title_tsv, unweighted) is all names. `learned: false` leaves learned names out.
 */
export function anyStem(terms: QueryTerm[], weights = "", options: { titles?: boolean; learned?: boolean } = {}): string {
  const { titles = false, learned = true } = options;
  const named = titles ? weights : weights ? [...weights].filter((weight) => namedWeights.includes(weight)).join("") : namedWeights;
  const stems = terms.flatMap((term) => [
    ...[...term.stems, ...term.synonyms.filter((synonym) => !synonym.learned).flatMap((synonym) => synonym.stems)].map((stem) => ({
      stem,
      weights,
    })),
    ...(learned && (named || titles)
      ? term.synonyms.filter((synonym) => synonym.learned).flatMap((synonym) => synonym.stems.map((stem) => ({ stem, weights: named })))
      : []),
  ]);
  // No stems (words the corpus lacks): a lexeme with spaces, which no parsed text ever holds.
  if (!stems.length) return `'${absentLexeme}'`;
  return stems
    .map(({ stem, weights }) => `'${stem.replace(/\\/g, "\\\\").replace(/'/g, "''")}'${weights ? `:${weights}` : ""}`)
    .join(" | ");
}

/** The letters of the fields that name things (ranking/fields.ts: title, heading). */
const namedWeights = [fields.title.label, fields.heading.label].join("");

const absentLexeme = "no such word";
