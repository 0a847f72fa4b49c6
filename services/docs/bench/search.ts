/**
 * Docs benchmark on a generated corpus of 10,000 pages (bench/corpus.ts):
 *  - ingest throughput of ingestFolder (the CLI's engine), a second unchanged run, and a baseline that
 *    only inserts the same rows (no chunks, no search vectors, no lexicon);
 *  - search_documents at the service (the tool host in-process: validation, SQL, output check) against a
 *    baseline ILIKE scan, and through the gateway (MCP client → HTTP → bus → service), per kind of query;
 *  - get_documents through the gateway (transport baseline) and answer_query through the gateway.
 * Uses DATABASE_URL (else postgres://postgres@127.0.0.1:5432/postgres) and NATS_URL (else the in-process bus).
 * Env: DOCS (10000), CALLS per path (400), BASELINE_CALLS (60), WARMUP (30).
 * Run: npx tsx services/docs/bench/search.ts
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Principal } from "@bancada/contracts";
import { callTool, connectClient, startStack, type ServiceFactory } from "@bancada/e2e";
import { createDocsService, ingestFolder, type DocsService } from "../src/index.js";
import { buildQueries, type BenchQuery } from "./queries.js";
import { writeBenchCorpus } from "./corpus.js";

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const DOCS = env("DOCS", 10_000);
const CALLS = env("CALLS", 400);
const BASELINE_CALLS = env("BASELINE_CALLS", 60);
const WARMUP = env("WARMUP", 30);
const baseUri = "https://docs.nimbus.example/bench";
const principal: Principal = {
  keyId: "bench",
  accountId: "bench",
  personId: "bench",
  agentId: "bench",
  scopes: ["docs:read"],
  allowWrites: false,
  allowedBoardIds: null,
  profile: "full",
};

process.env.DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
const log = (line: string) => process.stderr.write(`${line}\n`);

let service: DocsService | undefined;
const factory: ServiceFactory = async (deps) => {
  service = await createDocsService({ ...deps, poolMax: 4 });
  return { name: "docs", routes: service.routes, stop: () => service!.stop() };
};
// The gateway's per-key rate limit would stop sequential calls: this measures latency, not the limiter.
const stack = await startStack({ services: { docs: factory }, gateway: { rateLimit: { burst: 1e9, perSecond: 1e9 } } });
const folder = await mkdtemp(path.join(os.tmpdir(), "docs-bench-"));
try {
  const db = service!.db;
  log(
    `bus: ${stack.bus.kind}; load average ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(" ")}; writing ${DOCS} pages…`,
  );
  const pages = await writeBenchCorpus(folder, DOCS);

  log("ingesting…");
  let started = performance.now();
  const first = await ingestFolder({ db, folder, baseUri });
  const ingestSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  const second = await ingestFolder({ db, folder, baseUri });
  const unchangedSeconds = (performance.now() - started) / 1000;
  const plainSeconds = await plainInsertBaseline(db);
  const [sizes] = await db.$queryRaw<{ chunks: number; words: number }[]>`
    SELECT (SELECT count(*) FROM chunks)::int AS chunks, (SELECT count(*) FROM lexicon)::int AS words`;
  const { chunks, words } = sizes!;
  await db.$executeRaw`VACUUM ANALYZE documents`;
  await db.$executeRaw`VACUUM ANALYZE chunks`;
  await db.$executeRaw`VACUUM ANALYZE lexicon`;

  const queries = buildQueries(pages);
  const client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: ["docs:read"], allowWrites: false }));
  const atService = (query: BenchQuery) =>
    service!.host.call("search_documents", { query: query.text, pageSize: 10 }, principal).then(expectOk);
  const viaGateway = (query: BenchQuery) => callTool(client, "search_documents", { query: query.text, pageSize: 10 }).then(expectNoError);
  const ilike = (query: BenchQuery) => {
    const pattern = `%${query.text.replace(/["-]/g, "")}%`;
    return db.$queryRaw`SELECT name, title FROM documents WHERE title ILIKE ${pattern} OR content ILIKE ${pattern} LIMIT 10`;
  };

  log("searching…");
  for (const query of queries.slice(0, WARMUP)) await atService(query);
  const service1 = await measure(queries, CALLS, atService);
  const baseline = await measure(queries, BASELINE_CALLS, ilike);
  for (const query of queries.slice(0, WARMUP)) await viaGateway(query);
  const gateway = await measure(queries, CALLS, viaGateway);
  const name = `documents/docs.nimbus.example/bench/${pages[0]!.file.replace(/\.md$/, "")}`;
  const transport = await measure(queries, CALLS, () => callTool(client, "get_documents", { names: [name] }).then(expectNoError));
  const floor = await measure(queries, CALLS, () => service!.host.call("get_documents", { names: [name] }, principal).then(expectOk));
  const answers = await measure(queries, Math.min(CALLS, 150), (query) =>
    callTool(client, "answer_query", { query: query.question }).then(expectNoError),
  );
  await client.close();

  const row = (label: string, samples: number[]) =>
    `| ${label.padEnd(58)} | ${String(samples.length).padStart(5)} | ${ms(pct(samples, 0.5))} | ${ms(pct(samples, 0.99))} |`;
  const out = [
    `docs benchmark: ${DOCS} documents, ${chunks} chunks, ${words} lexicon words; bus ${stack.bus.kind}; ${os.cpus().length} cores; load ${os.loadavg()[0]!.toFixed(1)}`,
    "",
    "| ingest | documents | seconds | documents/s |",
    "| --- | ---: | ---: | ---: |",
    `| ingestFolder, empty corpus (chunks + search vectors + lexicon) | ${first.created} | ${ingestSeconds.toFixed(1)} | ${Math.round(first.created / ingestSeconds)} |`,
    `| ingestFolder again, nothing changed (hash check only) | ${second.unchanged} | ${unchangedSeconds.toFixed(1)} | ${Math.round(second.unchanged / unchangedSeconds)} |`,
    `| baseline: the same rows inserted plain (no chunks, no index) | ${DOCS} | ${plainSeconds.toFixed(1)} | ${Math.round(DOCS / plainSeconds)} |`,
    "",
    `| path (sequential calls) | calls | p50 ms | p99 ms |`,
    "| --- | ---: | ---: | ---: |",
    row("search_documents at the service (all kinds)", service1.all),
    ...Object.entries(service1.byKind).map(([kind, samples]) => row(`  · ${kind}`, samples)),
    row("baseline at the service: ILIKE '%query%' on title and content", baseline.all),
    row("floor at the service: get_documents of one page", floor.all),
    row("search_documents through the gateway (all kinds)", gateway.all),
    ...Object.entries(gateway.byKind).map(([kind, samples]) => row(`  · ${kind}`, samples)),
    row("baseline through the gateway: get_documents of one page", transport.all),
    row("answer_query through the gateway", answers.all),
  ];
  process.stdout.write(`${out.join("\n")}\n`);
} finally {
  await rm(folder, { recursive: true, force: true });
  await stack.stop();
}

async function measure(queries: BenchQuery[], calls: number, call: (query: BenchQuery) => Promise<unknown>) {
  const all: number[] = [];
  const byKind: Record<string, number[]> = {};
  for (let i = 0; i < calls; i++) {
    const query = queries[i % queries.length]!;
    const started = performance.now();
    await call(query);
    const elapsed = performance.now() - started;
    all.push(elapsed);
    (byKind[query.kind] ??= []).push(elapsed);
  }
  return { all, byKind };
}

/** The cost of storing the same documents without indexing them: one INSERT … unnest per 50 rows. */
async function plainInsertBaseline(db: DocsService["db"]): Promise<number> {
  await db.$executeRaw`CREATE TABLE plain_documents AS SELECT name, uri, title, description, content FROM documents WITH NO DATA`;
  const rows = await db.$queryRaw<{ name: string; uri: string; title: string; description: string; content: string }[]>`
    SELECT name, uri, title, description, content FROM documents ORDER BY name`;
  const started = performance.now();
  for (let i = 0; i < rows.length; i += 50) {
    const batch = rows.slice(i, i + 50);
    await db.$transaction(async (tx) => {
      await tx.$executeRaw`INSERT INTO plain_documents SELECT * FROM unnest(${batch.map((r) => r.name)}::text[], ${batch.map((r) => r.uri)}::text[],
        ${batch.map((r) => r.title)}::text[], ${batch.map((r) => r.description)}::text[], ${batch.map((r) => r.content)}::text[])`;
    });
  }
  const seconds = (performance.now() - started) / 1000;
  await db.$executeRaw`DROP TABLE plain_documents`;
  return seconds;
}

function expectOk(reply: { ok: boolean }): void {
  if (!reply.ok) throw new Error(`tool call failed: ${JSON.stringify(reply).slice(0, 300)}`);
}

function expectNoError(outcome: { isError: boolean; text: string }): void {
  if (outcome.isError) throw new Error(`tool call failed: ${outcome.text.slice(0, 300)}`);
}

function pct(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

function ms(value: number): string {
  return value.toFixed(1).padStart(6);
}
