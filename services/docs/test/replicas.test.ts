/**
 * Two docs replicas on one database: ingests at once through both leave a consistent corpus (each document whole,
 * in one version, with its own chunks; lexicon counts exact), and an ingest killed inside its writing transaction
 * leaves nothing of its batch visible; ingesting again completes.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReplica, type Replica } from "@bancada/e2e";
import { createDocsDb, createDocsService, ingestFolder, type DocsDb } from "../src/index.js";
import { distinctWords } from "../src/domain/words.js";
import { restClient, type Rest } from "./helpers.js";
import { publisherAccount, startDocsStack, tempFolder, type DocsStack } from "./stack.js";

const host = "replicas.example";
const page = (i: number, version: string) => ({
  uri: `https://${host}/guide/page-${i}`,
  content: [
    `# Page ${i} of the replicas guide`,
    `Shared words: deploy cluster replica ingest ${version}.`,
    `## Setup`,
    `The setup of page ${i} in ${version}, with words unique to it: word${i}x${version}.`,
    `## Usage`,
    `Usage notes for ${version}: search, answer, cite.`,
  ].join("\n\n"),
});

describe("two docs replicas", () => {
  let docs: DocsStack;
  let db: DocsDb;
  let replicaB: Replica;
  let onA: Rest;
  let onB: Rest;

  beforeAll(async () => {
    docs = await startDocsStack();
    db = docs.service().db;
    replicaB = await startReplica(docs.stack, "docs", async (deps) => {
      const service = await createDocsService({ ...deps, ingestAccounts: [publisherAccount] });
      return { routes: service.routes, stop: () => service.stop() };
    });
    const key = await docs.stack.createKey({ accountId: publisherAccount, scopes: ["docs:read"], allowWrites: true });
    onA = restClient(docs.stack.baseUrl, key);
    onB = restClient(replicaB.baseUrl, key);
  });
  afterAll(async () => {
    await replicaB?.stop();
    await docs?.stack.stop();
  });

  /** Every document whole and in one version, its chunks its own; the lexicon exactly the words of the documents. */
  const expectConsistentCorpus = async () => {
    const documents = await db.$queryRaw<{ name: string; title: string; content: string; chunk_count: number; chunks: string[] }[]>`
      SELECT d.name, d.title, d.content, d.chunk_count, coalesce(array_agg(c.text ORDER BY c.ordinal) FILTER (WHERE c.id IS NOT NULL), '{}') AS chunks
        FROM documents d LEFT JOIN chunks c ON c.document_name = d.name GROUP BY d.name`;
    for (const document of documents) {
      expect([document.name, document.chunks.length]).toEqual([document.name, document.chunk_count]);
    }
    const expected = new Map<string, number>();
    for (const document of documents)
      for (const word of distinctWords(`${document.title}\n${document.content}`)) expected.set(word, (expected.get(word) ?? 0) + 1);
    const lexicon = await db.lexiconWord.findMany();
    expect(new Map(lexicon.map((entry) => [entry.word, entry.docCount]))).toEqual(expected);
    return documents;
  };

  it("when two publishers ingest overlapping batches through two replicas at once, round after round, then every call succeeds and the corpus is consistent", async () => {
    const rounds = ["v1", "v2", "v3", "v4"];
    for (const [round, version] of rounds.entries()) {
      const a = Array.from({ length: 40 }, (_, i) => page(i, `${version}a`));
      const b = Array.from({ length: 40 }, (_, i) => page(i + 20, `${version}b`));
      // the two batches in opposite name order, so that two writers meet from both ends
      const [fromA, fromB] = await Promise.all([
        onA("PUT", "/v1/documents", { documents: a }),
        onB("PUT", "/v1/documents", { documents: b.reverse() }),
      ]);
      expect([round, fromA.status, fromB.status], JSON.stringify([fromA.body, fromB.body])).toEqual([round, 200, 200]);
    }
    const documents = await expectConsistentCorpus();
    expect(documents.filter((document) => document.name.includes(host))).toHaveLength(60);
    // each document holds one whole version: its chunks name the version its content names
    for (const document of documents.filter((d) => d.name.includes(host))) {
      const version = /ingest (v\d[ab])\./.exec(document.content)![1]!;
      expect([document.name, [...new Set(document.chunks.join("\n").match(/\bv\d[ab]\b/g))]]).toEqual([document.name, [version]]);
    }
  });

  it("when an ingest is SIGKILLed inside its writing transaction, then nothing of its batch is visible, the corpus stays consistent, and ingesting again completes", async () => {
    const folder = await tempFolder();
    const base = `https://${host}/killed`;
    for (let i = 0; i < 25; i++) await writeFile(path.join(folder.path, `page-${i}.md`), page(i, "vk").content);
    expect((await onB("PUT", "/v1/documents", { documents: [page(99, "v0")] })).status).toBe(200);
    // A lexicon word every page holds, locked by this test: the ingest's first batch writes its documents and chunks,
    // then waits on this row, inside its transaction.
    const lockerDb = createDocsDb(docs.stack.database.url, 1);
    let unlock!: () => void;
    const gate = new Promise<void>((resolve) => (unlock = resolve));
    let lockedRows!: (count: number) => void;
    const locked = new Promise<number>((resolve) => (lockedRows = resolve));
    const holding = lockerDb.$transaction(
      async (tx) => {
        lockedRows((await tx.$queryRaw<unknown[]>`SELECT word FROM lexicon WHERE word = 'replica' FOR UPDATE`).length);
        await gate;
      },
      { timeout: 90_000, maxWait: 10_000 },
    );
    let child: ChildProcess | undefined;
    try {
      expect(await locked).toBe(1);
      child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "fixtures/ingest-process.ts")], {
        cwd: path.resolve(import.meta.dirname, "../../.."),
        env: { ...process.env, INGEST_DATABASE_URL: docs.stack.database.url, INGEST_FOLDER: folder.path, INGEST_BASE_URI: base },
        stdio: ["ignore", "pipe", "inherit"],
      });
      await untilLine(child, "started");
      const waiting = await until(async () => {
        const rows = await db.$queryRaw<{ pid: number }[]>`
          SELECT pid FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%INSERT INTO lexicon%'`;
        return rows[0]?.pid;
      });
      // its documents and chunks are written, not committed: nobody sees them
      const visible = await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM documents WHERE starts_with(uri, ${base})`;
      expect(visible[0]!.n).toBe(0);
      await new Promise((resolve) => (child!.once("exit", resolve), child!.kill("SIGKILL")));
      unlock();
      await holding;
      await until(async () => {
        const rows = await db.$queryRaw<unknown[]>`SELECT 1 FROM pg_stat_activity WHERE pid = ${waiting}`;
        return rows.length === 0 ? true : undefined;
      });
      const after = await db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM documents WHERE starts_with(uri, ${base})`;
      expect(after[0]!.n).toBe(0);
      await expectConsistentCorpus();

      const again = await ingestFolder({ db, folder: folder.path, baseUri: base, batchSize: 10 });
      expect(again).toMatchObject({ files: 25, created: 25, skipped: 0 });
      const documents = await expectConsistentCorpus();
      expect(documents.filter((document) => document.name.includes("/killed/"))).toHaveLength(25);
    } finally {
      child?.kill("SIGKILL");
      unlock();
      await holding.catch(() => {});
      await lockerDb.$disconnect();
      await folder.remove();
    }
  }, 120_000);
});

async function until<T>(check: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function untilLine(child: ChildProcess, event: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no '${event}' line from the ingest`)), 60_000);
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if (parsed.event !== event) return;
      clearTimeout(timer);
      resolve(parsed);
    });
    child.once("exit", () => reject(new Error(`the ingest exited before '${event}'`)));
  });
}
