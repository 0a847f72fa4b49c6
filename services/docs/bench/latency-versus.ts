/**
 * Latency of search_documents and answer_query against a baseline version of the same code, in the same
 * run, on the PostgreSQL manual's evaluation database: on a shared machine the load changes from minute
 * to minute, so only numbers taken side by side compare. Each question is asked of both versions in turn
 * (the order alternating), every round; wall time is the call as a client of the domain sees it (SQL
 * included), CPU the Node process's own time during the call (parsing, ranking, composing: the part
 * PostgreSQL's speed does not explain).
 * Run (from services/docs; the baseline is extracted beside the sources so that its packages resolve, and
 * the generated Prisma client, which git does not hold, is copied into it):
 *   mkdir .baseline && (cd ../.. && git archive main services/docs/src) | tar -x -C .baseline --strip-components=3
 *   cp -r src/db/generated .baseline/db/ && BASELINE_SRC=$PWD/.baseline npx tsx bench/latency-versus.ts
 * ROUNDS (default 3) sets how many times each question is asked of each version. CORPUS=10k runs on the
 * generated 10,000-page database instead (made by answers-10k.ts), with its fact questions and the manual's.
 */
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { answerQuery } from "../src/domain/answer-query.js";
import { searchDocuments } from "../src/domain/search-documents.js";
import type { DocsDb } from "../src/index.js";
import { benchPages } from "./corpus.js";
import { openEvalDb, postgresManual } from "./eval-corpus.js";
import { buildQueries } from "./queries.js";
import { postgresQuestions, unanswerableQuestions } from "./questions.js";

type Tool = (db: DocsDb, input: { query: string; pageSize?: number }) => Promise<unknown>;
interface Version {
  label: string;
  search: Tool;
  answer: Tool;
}

const baselineSrc = process.env.BASELINE_SRC;
if (!baselineSrc) throw new Error("BASELINE_SRC must name the baseline's services/docs/src folder");
const load = async (file: string) => import(pathToFileURL(path.resolve(baselineSrc, file)).href);
const baseline: Version = {
  label: "baseline",
  search: (await load("domain/search-documents.ts")).searchDocuments as Tool,
  answer: (await load("domain/answer-query.ts")).answerQuery as Tool,
};
const current: Version = {
  label: "this branch",
  search: (db, input) => searchDocuments(db, { query: input.query, pageSize: input.pageSize ?? 10 }),
  answer: answerQuery,
};
const rounds = Number(process.env.ROUNDS ?? 3);

const samples = new Map<string, { wall: number[]; cpu: number[] }>();
const measure = async (key: string, call: () => Promise<unknown>) => {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await call();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const entry = samples.get(key) ?? { wall: [], cpu: [] };
  entry.wall.push(wall);
  entry.cpu.push((used.user + used.system) / 1000);
  samples.set(key, entry);
};

const generated = process.env.CORPUS === "10k";
const db = await openEvalDb(
  generated
    ? { label: "generated, 10,000 pages", database: "docs_eval_generated_10k", folder: "", baseUri: "https://docs.nimbus.example/bench" }
    : postgresManual,
);
try {
  const manual = [...postgresQuestions, ...unanswerableQuestions].map((question) => question.question);
  const facts = () => [...new Set(buildQueries(benchPages(10_000).pages).map((query) => query.question))].slice(0, manual.length);
  const questions = generated ? [...facts(), ...manual] : manual;
  // One warm-up pass of each version, not counted.
  for (const version of [baseline, current])
    for (const query of questions.slice(0, 10)) {
      await version.search(db, { query, pageSize: 10 });
      await version.answer(db, { query });
    }
  let turn = 0;
  for (let round = 0; round < rounds; round++)
    for (const query of questions) {
      const order = turn++ % 2 ? [current, baseline] : [baseline, current];
      for (const version of order) {
        await measure(`search_documents\t${version.label}`, () => version.search(db, { query, pageSize: 10 }));
        await measure(`answer_query\t${version.label}`, () => version.answer(db, { query }));
      }
    }
} finally {
  await db.$disconnect();
}
console.log(
  `${generated ? "generated 10,000 pages" : "PostgreSQL manual"}; load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}\n`,
);
const pct = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!.toFixed(1);
console.log("| tool | version | calls | wall p50 / p99 ms | Node CPU p50 / p99 ms | calls/s |\n| --- | --- | --- | --- | --- | --- |");
for (const [key, { wall, cpu }] of [...samples].sort(([a], [b]) => a.localeCompare(b))) {
  const [tool, version] = key.split("\t");
  const rate = (wall.length / (wall.reduce((sum, ms) => sum + ms, 0) / 1000)).toFixed(1);
  console.log(
    `| ${tool} | ${version} | ${wall.length} | ${pct(wall, 0.5)} / ${pct(wall, 0.99)} | ${pct(cpu, 0.5)} / ${pct(cpu, 0.99)} | ${rate} |`,
  );
}
