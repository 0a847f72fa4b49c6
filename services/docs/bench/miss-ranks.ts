/**
 * For each answerable question of the evaluation that answer_query's first three references miss, where
 * the answering page stands among the ranked candidate pages (or that it is not a candidate at all), to
 * tell a vocabulary gap (not a candidate) from a ranking fault (a candidate ranked too low).
 * Run: npx tsx services/docs/bench/miss-ranks.ts   (after answers.ts ingested the corpora)
 */
import { answerQuery, rankedPassages } from "../src/domain/answer-query.js";
import { queryTerms } from "../src/domain/query-terms.js";
import { evalSuites, openEvalDb, pagePrefix } from "./eval-corpus.js";

for (const { corpus, answerable: questions } of evalSuites) {
  const db = await openEvalDb(corpus);
  const prefix = pagePrefix(corpus);
  try {
    for (const question of questions) {
      const expected = new Set(question.pages.map((page) => prefix + page));
      const answer = await answerQuery(db, { query: question.question });
      if (answer.references.slice(0, 3).some((reference) => expected.has(reference.name))) continue;
      const { terms, corpusSize } = await queryTerms(db, question.question);
      const pages = [...new Set((await rankedPassages(db, terms, corpusSize)).map((passage) => passage.name))];
      const at = pages.findIndex((name) => expected.has(name));
      console.log(`${at < 0 ? "absent" : `page ${at + 1}/${pages.length}`}\t${question.question}\t(want ${question.pages.join(", ")})`);
    }
  } finally {
    await db.$disconnect();
  }
}
