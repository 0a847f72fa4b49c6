/**
 * answer_query without a language model: find the passages that cover the question best, rank them on
 * their words, quote the most relevant sentences of the best pages with numbered citations, and say
 * plainly when nothing covers enough of the question (empty references) instead of guessing.
 */
import type { DocsDb } from "../db/client.js";
import { composeAnswer } from "./compose-answer.js";
import { languageOf } from "./markdown/describe.js";
import { findPassages, headPassages, type Passage } from "./ranking/passages.js";
import { queryTerms, type QueryTerm } from "./query-terms.js";
import { rankPassages, type RankedPassage } from "./ranking/rank-passages.js";
import type { AnswerQueryInput, AnswerQueryResult } from "./schemas.js";

/** The least share of the question's weight the best passage must hold for an answer to be given. */
export const relevanceThreshold = 0.6;
/**
 * A page whose title names a term of the question may answer with less, counting its head: when every
 * term it lacks is a word the corpus knows. A word no page holds ("Elasticsearch") says the question is
 * about something else.
 */
export const headThreshold = 0.4;
/** Further pages are cited only when their best passage comes close to the best one. */
const relativeFloor = 0.6;
const pagesMax = 3;
const passagesPerPage = 2;
const secondShare = 0.35;

export async function answerQuery(db: DocsDb, input: AnswerQueryInput): Promise<AnswerQueryResult> {
  const { terms, corpusSize } = await queryTerms(db, input.query);
  if (!terms.some((term) => !term.filler)) return nothingFound(input.query);
  const passages = await rankedPassages(db, terms, corpusSize);
  const best = passages[0];
  if (!best || best.coverage < (best.viaHead ? headThreshold : relevanceThreshold)) return nothingFound(input.query);
  const result = composeAnswer(rankedPages(passages, relativeFloor, pagesMax), terms);
  return result.references.length ? result : nothingFound(input.query);
}

/**
 * Passages covering the question, and those of pages whose title names it, ranked on their words. The
 * pages' heads are read even when some section holds nearly all of the question: a section of another
 * subject often does ("Index-Only Scans and Covering Indexes" for "build an index that only covers some
 * of the rows"), and the page whose title names the subject ("CREATE INDEX") must still be a candidate.
 * Both queries run at once; neither needs the other.
 */
export async function rankedPassages(db: DocsDb, terms: QueryTerm[], corpusSize: number): Promise<RankedPassage[]> {
  // Names learned from the corpus (vocabulary/) count only when no passage holds the whole question in
  // its own words, and only through pages' titles: they reach the page that names what the question
  // describes, and would otherwise only crowd the sections that say it. Both readings run at once.
  const own = terms.map((term) => ({ ...term, synonyms: term.synonyms.filter((synonym) => !synonym.learned) }));
  const learned = terms.some((term) => term.synonyms.some((synonym) => synonym.learned));
  const [first, named] = await Promise.all([
    candidatePassages(db, own, corpusSize),
    learned && terms.every((term) => term.documents > 0) ? headPassages(db, terms, headThreshold) : Promise.resolve([]),
  ]);
  if (!learned || first.some((passage) => passage.coverage >= 1 - 1e-9)) return rankPassages(first, own);
  const seen = new Set(first.map((passage) => passage.id));
  return rankPassages([...first, ...named.filter((passage) => !seen.has(passage.id))], terms);
}

async function candidatePassages(db: DocsDb, terms: QueryTerm[], corpusSize: number): Promise<Passage[]> {
  const [covering, headed] = await Promise.all([
    findPassages(db, terms, corpusSize, relevanceThreshold),
    terms.every((term) => term.documents > 0) ? headPassages(db, terms, headThreshold) : Promise.resolve([]),
  ]);
  const seen = new Set(covering.map((passage) => passage.id));
  return [...covering, ...headed.filter((passage) => !seen.has(passage.id))];
}

/**
 * The best pages (at most `most`), each with its best passages (at most `passagesPerPage`), best first. A page
 * is worth its best passage plus a share of its second: a page with several sections on the question is about
 * it. Pages under `relative` × the best page's worth are left out.
 */
export function rankedPages(passages: RankedPassage[], relative: number, most: number): RankedPassage[][] {
  const pages = new Map<string, RankedPassage[]>();
  for (const passage of passages) {
    const page = pages.get(passage.name);
    if (!page) pages.set(passage.name, [passage]);
    else if (page.length < passagesPerPage) page.push(passage);
  }
  const worth = (page: RankedPassage[]) => page[0]!.score + secondShare * (page[1]?.score ?? 0);
  const ranked = [...pages.values()].sort((a, b) => worth(b) - worth(a));
  const floor = ranked.length ? worth(ranked[0]!) * relative : 0;
  return ranked.filter((page) => worth(page) >= floor).slice(0, most);
}

function nothingFound(question: string): AnswerQueryResult {
  const answer =
    languageOf(undefined, question) === "pt"
      ? "Nada na documentação é relevante o bastante para responder a esta pergunta, então nenhuma resposta foi dada. Tente search_documents com outras palavras."
      : "Nothing in the documentation is relevant enough to answer this question, so no answer is given. Try search_documents with other words.";
  return { answer, references: [] };
}
