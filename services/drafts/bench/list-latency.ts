/**
 * sosoapi_list_content_drafts at 100,000 drafts in one workspace: latency p50/p99 and throughput of the
 * keyset list (first page, deep pages, a full walk), next to two baselines measured in the same run —
 * OFFSET paging to the same depths (what keyset avoids) and the first page of a 1,000-draft workspace —
 * and end to end through the gateway with a real MCP client.
 *
 *   npx tsx services/drafts/bench/list-latency.ts      (DATABASE_URL / NATS_URL as for the tests)
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { callTool, connectClient, startStack } from "@bancada/e2e";
import { createDraftsDb, createDraftsService } from "../src/index.js";
import { listDrafts } from "../src/domain/list-drafts.js";
import type { DraftsContext } from "../src/domain/context.js";
import type { ListDraftsResult } from "../src/domain/schemas.js";

const total = 100_000;
const small = 1_000;
const personId = randomUUID();

interface Row {
  label: string;
  samples: number[];
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "drafts-bench-"));
  const stack = await startStack({
    services: {
      drafts: async (deps) => {
        const service = await createDraftsService({ ...deps, dataDir, worker: { enabled: false } });
        return { name: "drafts", routes: service.routes, stop: () => service.stop() };
      },
    },
  });
  const db = createDraftsDb(stack.database.url, 4);
  try {
    const key = await stack.createKey({ accountId: "bench", personId, scopes: ["drafts:read", "drafts:write"], allowWrites: true });
    const big = await makeWorkspace(stack.baseUrl, key, "big");
    const little = await makeWorkspace(stack.baseUrl, key, "small");
    let started = performance.now();
    await seed(db, big, total);
    await seed(db, little, small);
    await db.$executeRaw`ANALYZE drafts`;
    console.log(`seeded ${total} + ${small} drafts in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const ctx: DraftsContext = { db, blobs: undefined as never, submitted: () => {}, accountId: "bench", personId };
    const positions = await sampleCursors(db, big, 200);
    const rows: Row[] = [];
    const time = async (label: string, n: number, run: (i: number) => Promise<unknown>) => {
      for (let i = 0; i < Math.min(10, n / 10); i++) await run(i);
      const samples: number[] = [];
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        await run(i);
        samples.push(performance.now() - t);
      }
      rows.push({ label, samples });
    };

    await time("keyset, first page (limit 20), 100k", 300, () => listDrafts(ctx, { workspace_id: big }));
    await time("keyset, first page (limit 50), 100k", 300, () => listDrafts(ctx, { workspace_id: big, limit: 50 }));
    await time("keyset, page at a random depth (limit 50), 100k", 300, (i) =>
      listDrafts(ctx, { workspace_id: big, limit: 50, cursor: positions[i % positions.length]!.cursor }),
    );
    await time("baseline: OFFSET at the same depths (limit 50), 100k", 40, (i) =>
      offsetPage(db, big, positions[i % positions.length]!.depth),
    );
    await time("baseline: keyset first page (limit 20), 1k workspace", 300, () => listDrafts(ctx, { workspace_id: little }));

    started = performance.now();
    let pages = 0;
    let seen = 0;
    let cursor: ListDraftsResult["next_cursor"] = null;
    const walk: number[] = [];
    do {
      const t = performance.now();
      const page: ListDraftsResult = await listDrafts(ctx, { workspace_id: big, limit: 50, ...(cursor ? { cursor } : {}) });
      walk.push(performance.now() - t);
      seen += page.returned_count;
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    const walkSeconds = (performance.now() - started) / 1000;
    rows.push({ label: `keyset, full walk: ${pages} pages, ${seen} drafts`, samples: walk });

    const client = await connectClient(stack.mcpUrl, key);
    await time("end to end (MCP client → gateway → bus → service), first page, 100k", 200, () =>
      callTool(client, "sosoapi_list_content_drafts", { workspace_id: big }),
    );
    await time("end to end, page at a random depth (limit 50), 100k", 200, (i) =>
      callTool(client, "sosoapi_list_content_drafts", { workspace_id: big, limit: 50, cursor: positions[i % positions.length]!.cursor }),
    );
    await client.close();

    print(rows);
    console.log(
      `full walk: ${(seen / walkSeconds).toFixed(0)} drafts/s (${(pages / walkSeconds).toFixed(0)} pages/s); submitted drafts left out: ${total - seen}`,
    );
    const plan = await db.$queryRaw<{ "QUERY PLAN": string }[]>`
      EXPLAIN (FORMAT TEXT) SELECT id FROM drafts
       WHERE workspace_id = ${big}::uuid AND state <> 'submitted' AND (updated_at, id) < (${positions[0]!.cursor.updated_at}::timestamptz, ${positions[0]!.cursor.id}::uuid)
       ORDER BY drafts.updated_at DESC, drafts.id DESC LIMIT 51`;
    console.log(`plan of a deep keyset page:\n${plan.map((line) => `  ${line["QUERY PLAN"]}`).join("\n")}`);
  } finally {
    await db.$disconnect();
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function makeWorkspace(baseUrl: string, key: string, name: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/workspaces`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name }),
  });
  return ((await response.json()) as { workspace: { id: string } }).workspace.id;
}

/** Drafts over the past 30 days, a tenth of them submitted, captions of about 100 to 1,500 characters. */
async function seed(db: ReturnType<typeof createDraftsDb>, workspaceId: string, count: number): Promise<void> {
  await db.$executeRaw`
    INSERT INTO drafts (id, workspace_id, revision, state, caption, account_ids, asset_count, created_by, updated_by, created_at, updated_at)
    SELECT gen_random_uuid(), ${workspaceId}::uuid, 1 + n % 7, CASE WHEN n % 10 = 0 THEN 'submitted' ELSE 'draft' END::"DraftState",
           repeat('Legenda de teste ' || n || '. ', 5 + n % 60), ARRAY['instagram:acme', 'x:acme'], n % 5, ${personId}, ${personId},
           t, t
      FROM (SELECT n, date_trunc('milliseconds', now() - random() * interval '30 days') AS t FROM generate_series(1, ${count}::int) AS n) AS rows`;
}

async function sampleCursors(db: ReturnType<typeof createDraftsDb>, workspaceId: string, n: number) {
  const rows = await db.$queryRaw<{ id: string; updated_at: Date; depth: bigint }[]>`
    SELECT id::text, updated_at, depth FROM (
      SELECT id, updated_at, row_number() OVER (ORDER BY drafts.updated_at DESC, drafts.id DESC) AS depth
        FROM drafts WHERE workspace_id = ${workspaceId}::uuid AND state <> 'submitted') ranked
     ORDER BY random() LIMIT ${n}::int`;
  return rows.map((row) => ({ cursor: { updated_at: row.updated_at.toISOString(), id: row.id }, depth: Number(row.depth) }));
}

function offsetPage(db: ReturnType<typeof createDraftsDb>, workspaceId: string, offset: number) {
  return db.$queryRaw`
    SELECT id::text, workspace_id::text, revision, state::text AS state, left(caption, 500) AS caption_preview, asset_count,
           COALESCE(cardinality(account_ids), 0) AS account_count, created_by, updated_by, created_at, updated_at
      FROM drafts WHERE workspace_id = ${workspaceId}::uuid AND state <> 'submitted'
     ORDER BY drafts.updated_at DESC, drafts.id DESC LIMIT 51 OFFSET ${offset}::int`;
}

function print(rows: Row[]): void {
  const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  console.log(`\n${"measure".padEnd(78)} ${"n".padStart(5)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"calls/s".padStart(8)}`);
  for (const row of rows) {
    const sorted = [...row.samples].sort((a, b) => a - b);
    const mean = sorted.reduce((sum, x) => sum + x, 0) / sorted.length;
    console.log(
      `${row.label.padEnd(78)} ${String(sorted.length).padStart(5)} ${pct(sorted, 50).toFixed(2).padStart(8)} ${pct(sorted, 99).toFixed(2).padStart(8)} ${(1000 / mean).toFixed(0).padStart(8)}`,
    );
  }
  console.log("");
}

await main();
