/**
 * Where the time of answer_query and search_documents goes on the PostgreSQL manual's evaluation
 * database, stage by stage (p50 over the evaluation's questions, ms): reading the question (corrections,
 * parsing, word weights), the candidate passages' SQL, the head passages' SQL, scoring in JS, composing;
 * and search_documents' head tier, body tier and excerpts. A machine's load shows in every stage alike.
 * Run: npx tsx services/docs/bench/profile-query.ts   (after answers.ts ingested the corpus)
 */
import { relevanceThreshold, headThreshold } from "../src/domain/answer-query.js";
import { composeAnswer } from "../src/domain/compose-answer.js";
import { correctQuery } from "../src/domain/corrections.js";
import { findPassages, headPassages } from "../src/domain/ranking/passages.js";
import { queryTerms } from "../src/domain/query-terms.js";
import { rankPassages } from "../src/domain/ranking/rank-passages.js";
import { resultsOf } from "../src/domain/search-page.js";
import { bodyHits, headHits } from "../src/domain/ranking/search-sql.js";
import { openEvalDb, postgresManual } from "./eval-corpus.js";
import { postgresQuestions, unanswerableQuestions } from "./questions.js";

const db = await openEvalDb(postgresManual);
const stages = new Map<string, number[]>();
const time = async <T>(stage: string, call: () => Promise<T> | T): Promise<T> => {
  const started = performance.now();
  const result = await call();
  stages.set(stage, [...(stages.get(stage) ?? []), performance.now() - started]);
  return result;
};
try {
  for (const round of [0, 1])
    for (const { question } of [...postgresQuestions, ...unanswerableQuestions]) {
      if (round === 0) stages.clear();
      await time("answer: correct spelling", () => correctQuery(db, question));
      const { terms, corpusSize } = await time("answer: read question (all)", () => queryTerms(db, question));
      const covering = await time("answer: candidate passages SQL", () => findPassages(db, terms, corpusSize, relevanceThreshold));
      const headed = await time("answer: head passages SQL", () => headPassages(db, terms, headThreshold));
      const ranked = await time("answer: rank in JS", () => rankPassages([...covering, ...headed], terms));
      await time("answer: compose in JS", () => composeAnswer([ranked.slice(0, 2)], terms));
      const head = await time("search: head tier SQL", () => headHits(db, question, undefined, 11));
      const body = await time("search: body tier SQL", () => bodyHits(db, question, undefined, 11 - head.length));
      await time("search: excerpts SQL", () => resultsOf(db, question, [...head, ...body].slice(0, 10)));
    }
} finally {
  await db.$disconnect();
}
const pct = (samples: number[], p: number) =>
  [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(p * samples.length))]!;
console.log("| stage | p50 ms | p99 ms |\n| --- | --- | --- |");
for (const [stage, samples] of stages) console.log(`| ${stage} | ${pct(samples, 0.5).toFixed(1)} | ${pct(samples, 0.99).toFixed(1)} |`);
