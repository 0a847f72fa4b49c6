/**
 * The answer-quality evaluation in small, so a ranking change that loses answers fails here: ten natural
 * questions per real corpus (PostgreSQL's manual, npm's docs, Node.js's API docs), every tenth of the full
 * sets of bench/questions.ts, and questions the corpus cannot answer. bench/answers.ts runs the whole sets
 * and times them; this file only counts hits, with thresholds a little below what the ranking scores today.
 * Each corpus is ingested into its own database beside DATABASE_URL's, kept between runs (an unchanged page
 * costs a hash). A corpus whose files are not on this machine is skipped and says so (.ci/run installs them).
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ingestEvalCorpus, nodeApiDocs, npmDocs, openEvalDb, pagePrefix, postgresManual, type EvalCorpus } from "../bench/eval-corpus.js";
import {
  nodeQuestions,
  nodeUnanswerableQuestions,
  npmQuestions,
  postgresQuestions,
  unanswerableQuestions,
  type EvalQuestion,
} from "../bench/questions.js";
import { answerQuery } from "../src/domain/answer-query.js";

/** Ten questions spread over the set (not its first ten, which were written first and read alike). */
const spread = (questions: EvalQuestion[]) => questions.filter((_, index) => index % Math.floor(questions.length / 10) === 0).slice(0, 10);

interface Smoke {
  corpus: EvalCorpus;
  questions: EvalQuestion[];
  unanswerable: EvalQuestion[];
  /** The least number of the ten whose answer cites an answering page among its first three references (today: 8, 7, 7). */
  top3: number;
}

const smokes: Smoke[] = [
  { corpus: postgresManual, questions: spread(postgresQuestions), unanswerable: spread(unanswerableQuestions), top3: 7 },
  { corpus: npmDocs, questions: spread(npmQuestions), unanswerable: [], top3: 6 },
  { corpus: nodeApiDocs, questions: spread(nodeQuestions), unanswerable: nodeUnanswerableQuestions, top3: 6 },
];

describe("answer quality on real documentation (smoke)", () => {
  describe.each(smokes)("$corpus.label", ({ corpus, questions, unanswerable, top3 }) => {
    it.skipIf(!existsSync(corpus.folder))(
      `when ten natural questions are asked, then at least ${top3} cite an answering page in the first three references, and no question the corpus cannot answer gets a reference`,
      async () => {
        const db = await openEvalDb(corpus);
        try {
          await ingestEvalCorpus(db, corpus);
          const prefix = pagePrefix(corpus);
          const missed: string[] = [];
          for (const question of questions) {
            const { references } = await answerQuery(db, { query: question.question });
            const cited = references.slice(0, 3).map((reference) => reference.name.slice(prefix.length));
            if (!cited.some((page) => question.pages.includes(page)))
              missed.push(`${question.question} → ${cited.join(", ") || "no answer"}`);
          }
          const answered: string[] = [];
          for (const question of unanswerable) {
            const { references } = await answerQuery(db, { query: question.question });
            if (references.length) answered.push(`${question.question} → ${references[0]!.name}`);
          }
          expect(
            { hits: questions.length - missed.length >= top3 ? "enough" : questions.length - missed.length, answered },
            missed.join("\n"),
          ).toEqual({
            hits: "enough",
            answered: [],
          });
        } finally {
          await db.$disconnect();
        }
      },
      600_000,
    );
    if (!existsSync(corpus.folder)) it(`is skipped: ${corpus.folder} is not on this machine`, () => {});
  });
});
