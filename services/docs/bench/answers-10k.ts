/**
 * answer_query and search_documents latency at 10,000 documents (the generated corpus of bench/corpus.ts,
 * kept in database docs_eval_generated_10k between runs), at the service (SQL + composition, no transport):
 * the corpus's own fact questions, natural questions about another product (what a real corpus mostly
 * gets: partial matches), and questions it cannot answer. get_documents of one page is the floor.
 * Run: npx tsx services/docs/bench/answers-10k.ts   (CALLS per kind, default 100)
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { answerQuery } from "../src/domain/answer-query.js";
import { getDocuments } from "../src/domain/get-documents.js";
import { searchDocuments } from "../src/domain/search-documents.js";
import { writeBenchCorpus } from "./corpus.js";
import { ingestEvalCorpus, openEvalDb, type EvalCorpus } from "./eval-corpus.js";
import { buildQueries } from "./queries.js";
import { postgresQuestions, unanswerableQuestions } from "./questions.js";

const CALLS = Number(process.env.CALLS ?? 100);
const folder = await mkdtemp(path.join(os.tmpdir(), "docs-10k-"));
const corpus: EvalCorpus = {
  label: "generated, 10,000 pages",
  database: "docs_eval_generated_10k",
  folder,
  baseUri: "https://docs.nimbus.example/bench",
};
const db = await openEvalDb(corpus);
try {
  const pages = await writeBenchCorpus(folder, 10_000);
  await ingestEvalCorpus(db, corpus);
  await db.$executeRaw`VACUUM ANALYZE chunks`;
  await db.$executeRaw`VACUUM ANALYZE documents`;
  await db.$executeRaw`VACUUM ANALYZE lexicon`;
  const facts = buildQueries(pages).map((query) => query.question);
  const natural = postgresQuestions.map((question) => question.question);
  const unrelated = unanswerableQuestions.map((question) => question.question);
  const name = `documents/docs.nimbus.example/bench/${pages[0]!.file.replace(/\.md$/, "")}`;
  const rows: string[] = [];
  const measure = async (label: string, inputs: string[], call: (input: string) => Promise<unknown>) => {
    for (const input of inputs.slice(0, 10)) await call(input);
    const samples: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      await call(inputs[i % inputs.length]!);
      samples.push(performance.now() - started);
    }
    rows.push(`| ${label.padEnd(52)} | ${String(samples.length).padStart(5)} | ${pct(samples, 0.5)} | ${pct(samples, 0.99)} |`);
  };
  await measure("floor: get_documents of one page", [name], () => getDocuments(db, [name]));
  await measure("search_documents, the corpus's fact questions", facts, (query) => searchDocuments(db, { query, pageSize: 10 }));
  await measure("answer_query, the corpus's fact questions", facts, (query) => answerQuery(db, { query }));
  await measure("answer_query, natural questions of another manual", natural, (query) => answerQuery(db, { query }));
  await measure("answer_query, questions it cannot answer", unrelated, (query) => answerQuery(db, { query }));
  const [size] = await db.$queryRaw<{ documents: number; chunks: number }[]>`
    SELECT (SELECT count(*) FROM documents)::int AS documents, (SELECT count(*) FROM chunks)::int AS chunks`;
  process.stdout.write(
    [
      `${size!.documents} documents, ${size!.chunks} chunks; ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`,
      "",
      "| at the service (sequential calls) | calls | p50 ms | p99 ms |",
      "| --- | ---: | ---: | ---: |",
      ...rows,
      "",
    ].join("\n"),
  );
} finally {
  await db.$disconnect();
  await rm(folder, { recursive: true, force: true });
}

function pct(samples: number[], p: number): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN).toFixed(1).padStart(6);
}
