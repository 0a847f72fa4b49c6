/**
 * Answer-quality evaluation on real documentation no one here wrote: the PostgreSQL 15 HTML manual, npm's
 * own docs and Node.js's API docs (each when installed on this machine). For each natural question, whether a page that
 * answers it is the first / among the first three results of search_documents and of answer_query's
 * references; for questions the corpus cannot answer, how often answer_query still cites something;
 * repeated sentences inside answers; p50/p99 latency of both tools at the service (SQL + composition).
 * Run: npx tsx services/docs/bench/answers.ts   (VERBOSE=1 prints every answer that misses; DUMP=file writes each
 * question's first three references and search results, one JSON line each, to compare two versions)
 * Each corpus has its own database beside DATABASE_URL's (docs_eval_*), kept between runs; ingestion is incremental.
 */
import { writeFileSync } from "node:fs";
import { answerQuery } from "../src/domain/answer-query.js";
import { searchDocuments } from "../src/domain/search-documents.js";
import type { DocsDb } from "../src/index.js";
import { evalSuites, ingestEvalCorpus, openEvalDb, pagePrefix, type EvalCorpus } from "./eval-corpus.js";
import type { EvalQuestion } from "./questions.js";

const verbose = process.env.VERBOSE === "1";
const dump: string[] = [];
const log = (line: string) => process.stderr.write(`${line}\n`);

const lines: string[] = [];
for (const { corpus, answerable, unanswerable } of evalSuites) {
  const db = await openEvalDb(corpus);
  try {
    if (!(await ingestEvalCorpus(db, corpus))) continue;
    await warm(db);
    lines.push(...(await evaluate(db, corpus, answerable, unanswerable)), "");
  } finally {
    await db.$disconnect();
  }
}
process.stdout.write(`${lines.join("\n")}\n`);
if (process.env.DUMP) writeFileSync(process.env.DUMP, dump.join("\n") + "\n");

async function warm(db: DocsDb): Promise<void> {
  await db.$executeRaw`VACUUM ANALYZE documents`;
  await db.$executeRaw`VACUUM ANALYZE chunks`;
  await db.$executeRaw`VACUUM ANALYZE lexicon`;
}

async function evaluate(
  db: DocsDb,
  corpus: EvalCorpus,
  answerable: readonly EvalQuestion[],
  unanswerable: readonly EvalQuestion[],
): Promise<string[]> {
  const prefix = pagePrefix(corpus);
  const known = new Set(
    (await db.$queryRaw<{ name: string }[]>`SELECT name FROM documents WHERE starts_with(name, ${prefix})`).map((row) => row.name),
  );
  for (const question of answerable)
    for (const page of question.pages)
      if (!known.has(prefix + page)) log(`warning: ${page} (for "${question.question}") is not in the corpus`);
  const searchMs: number[] = [];
  const answerMs: number[] = [];
  const tally = { search1: 0, search3: 0, answer1: 0, answer3: 0, answered: 0, repeats: 0, answersWithRepeats: 0, falseAnswers: 0 };
  const timed = async <T>(samples: number[], call: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await call();
    samples.push(performance.now() - started);
    return result;
  };
  for (const question of [...answerable, ...unanswerable]) {
    const expected = new Set(question.pages.map((page) => prefix + page));
    const found = await timed(searchMs, () => searchDocuments(db, { query: question.question, pageSize: 10 }));
    const answer = await timed(answerMs, () => answerQuery(db, { query: question.question }));
    const repeated = repeatedSentences(answer.answer);
    tally.repeats += repeated;
    if (repeated) tally.answersWithRepeats++;
    const cited = answer.references.map((reference) => reference.name);
    const short = (names: string[]) => names.slice(0, 3).map((name) => name.slice(prefix.length));
    dump.push(
      JSON.stringify({ question: question.question, answer: short(cited), search: short(found.results.map((result) => result.parent)) }),
    );
    if (!question.pages.length) {
      if (cited.length) {
        tally.falseAnswers++;
        if (verbose) log(`\n✗ UNANSWERABLE but answered: ${question.question}\n${answer.answer}\n  ${cited.join("\n  ")}`);
      }
      continue;
    }
    const searched = found.results.map((result) => result.parent);
    if (expected.has(searched[0] ?? "")) tally.search1++;
    if (searched.slice(0, 3).some((name) => expected.has(name))) tally.search3++;
    if (cited.length) tally.answered++;
    if (expected.has(cited[0] ?? "")) tally.answer1++;
    const hit3 = cited.slice(0, 3).some((name) => expected.has(name));
    if (hit3) tally.answer3++;
    if (verbose && (!hit3 || repeated))
      log(
        `\n${hit3 ? "~ REPEATS" : "✗ MISS"}: ${question.question}  (want ${question.pages.join(", ")})\n${answer.answer}\n  ${cited.map((name) => name.slice(prefix.length)).join(", ")}\n  search: ${searched
          .slice(0, 3)
          .map((name) => name.slice(prefix.length))
          .join(", ")}`,
      );
  }
  const n = answerable.length;
  const share = (count: number, of: number) => `${count}/${of} (${of ? Math.round((count / of) * 100) : 0} %)`;
  const [size] = await db.$queryRaw<{ documents: number; chunks: number }[]>`
    SELECT (SELECT count(*) FROM documents)::int AS documents, (SELECT count(*) FROM chunks)::int AS chunks`;
  return [
    `## ${corpus.label}: ${size!.documents} documents, ${size!.chunks} chunks`,
    "",
    "| measure | value |",
    "| --- | --- |",
    `| search_documents: an answering page first | ${share(tally.search1, n)} |`,
    `| search_documents: an answering page in the top 3 | ${share(tally.search3, n)} |`,
    `| answer_query: answered at all | ${share(tally.answered, n)} |`,
    `| answer_query: an answering page cited first | ${share(tally.answer1, n)} |`,
    `| answer_query: an answering page in the first 3 references | ${share(tally.answer3, n)} |`,
    ...(unanswerable.length
      ? [`| unanswerable questions with no reference | ${share(unanswerable.length - tally.falseAnswers, unanswerable.length)} |`]
      : []),
    `| answers repeating a sentence (repeated sentences) | ${tally.answersWithRepeats} (${tally.repeats}) |`,
    `| search_documents p50 / p99 ms | ${pct(searchMs, 0.5)} / ${pct(searchMs, 0.99)} |`,
    `| answer_query p50 / p99 ms | ${pct(answerMs, 0.5)} / ${pct(answerMs, 0.99)} |`,
  ];
}

/** Sentences of an answer that another sentence of it already said (same words, citations aside). */
export function repeatedSentences(answer: string): number {
  const seen = new Set<string>();
  let repeats = 0;
  for (const sentence of answer.replace(/\[\d+\]/g, " ").split(/(?<=[.!?])\s+|\n+/)) {
    const key = sentence
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
    if (key.length < 12) continue;
    if (seen.has(key)) repeats++;
    seen.add(key);
  }
  return repeats;
}

function pct(samples: number[], p: number): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN).toFixed(1);
}
