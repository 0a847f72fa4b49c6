/**
 * answer_query without a language model: find the passages that cover the question best, quote their
 * most relevant sentences with numbered citations, and say plainly when nothing covers enough of the
 * question (empty references) instead of guessing.
 */
import type { DocsDb } from "../db/client.js";
import { composeAnswer } from "./compose-answer.js";
import { languageOf } from "./markdown/describe.js";
import { findPassages, type Passage } from "./passages.js";
import { queryTerms } from "./query-terms.js";
import type { AnswerQueryInput, AnswerQueryResult } from "./schemas.js";

/** The least share of the question's weight the best passage must hold for an answer to be given. */
export const relevanceThreshold = 0.6;
/** Further passages are quoted only when they come close to the best one. */
const relativeFloor = 0.8;
const passagesMax = 4;
const perDocumentMax = 2;

export async function answerQuery(db: DocsDb, input: AnswerQueryInput): Promise<AnswerQueryResult> {
  const { terms, corpusSize } = await queryTerms(db, input.query);
  const passages = terms.length ? await findPassages(db, terms, corpusSize, relevanceThreshold) : [];
  const best = passages[0]?.coverage ?? 0;
  if (best < relevanceThreshold) return nothingFound(input.query);
  const floor = Math.max(relevanceThreshold, best * relativeFloor);
  const result = composeAnswer(choose(passages.filter((passage) => passage.coverage >= floor)), terms);
  return result.references.length ? result : nothingFound(input.query);
}

function choose(passages: Passage[]): Passage[] {
  const perDocument = new Map<string, number>();
  const chosen: Passage[] = [];
  for (const passage of passages) {
    const count = perDocument.get(passage.name) ?? 0;
    if (count >= perDocumentMax) continue;
    perDocument.set(passage.name, count + 1);
    chosen.push(passage);
    if (chosen.length === passagesMax) break;
  }
  return chosen;
}

function nothingFound(question: string): AnswerQueryResult {
  const answer =
    languageOf(undefined, question) === "pt"
      ? "Nada na documentação é relevante o bastante para responder a esta pergunta, então nenhuma resposta foi dada. Tente search_documents com outras palavras."
      : "Nothing in the documentation is relevant enough to answer this question, so no answer is given. Try search_documents with other words.";
  return { answer, references: [] };
}
