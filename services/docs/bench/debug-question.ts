/**
 * Shows how answer_query reads one question on the evaluation database: its terms (weight, stems,
 * forms, synonyms; a learned name marked ~), the ranked candidate passages, and the answer. Run: [CORPUS=npm|node] npx tsx services/docs/bench/debug-question.ts "question"
 */
import { answerQuery, rankedPassages } from "../src/domain/answer-query.js";
import { queryTerms } from "../src/domain/query-terms.js";
import { nodeApiDocs, npmDocs, openEvalDb, postgresManual } from "./eval-corpus.js";

// CORPUS=npm for npm's docs, node for Node.js's; the PostgreSQL manual otherwise (ingested by answers.ts).
const question = process.argv.slice(2).join(" ");
const db = await openEvalDb(process.env.CORPUS === "npm" ? npmDocs : process.env.CORPUS === "node" ? nodeApiDocs : postgresManual);
try {
  const { terms, corpusSize } = await queryTerms(db, question);
  for (const term of terms)
    console.log(
      `${term.words.padEnd(16)} weight ${term.weight.toFixed(2)} docs ${term.documents} stems ${term.stems.join(",")} forms ${term.forms.join(",")} synonyms ${term.synonyms.map((s) => (s.learned ? `~${s.words}` : s.words)).join(",")}`,
    );
  const ranked = await rankedPassages(db, terms, corpusSize);
  for (const passage of ranked.slice(0, 12))
    console.log(
      `${passage.score.toFixed(3)} cov ${passage.coverage.toFixed(2)}${passage.viaHead ? " head" : ""} ${passage.name.split("/").slice(-2).join("/")} #${passage.anchor} › ${passage.headingPath.join(" › ")}`,
    );
  console.log(JSON.stringify(await answerQuery(db, { query: question }), null, 1));
} finally {
  await db.$disconnect();
}
