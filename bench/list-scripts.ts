/**
 * list_scripts through the gateway (MCP SDK Client) against the SQL-level baseline (the domain function
 * listScripts(ctx, input) in-process, same Prisma client as the service), on 100,000 scripts of one account
 * plus 10,000 of another, seeded with multi-row INSERTs through `pg`. Then EXPLAIN (ANALYZE, BUFFERS) of the
 * exact SQL the domain function sends (captured from the wire, checked against a hand-written copy).
 *
 * Env: SCRIPTS (100000), OTHER_SCRIPTS (10000), CALLS per path per case (200), WARMUP (10),
 *      CASE_BUDGET_MS per path per case (5000; slow cases stop early, after at least MIN_CALLS = 4),
 *      TOTAL_BUDGET_MS (170000: the run shortens the cases to end within it, seeding included),
 *      TIE_GROUP (0; N = the N most recent scripts share one updated_at),
 *      SEED_PG_OPTIONS (session settings of the seeding connections).
 */
import "./lib/env.js";
import os from "node:os";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { connectClient } from "@bancada/testkit";
// The in-process baseline: the domain function through its public subpath export (the same module the service loads).
import { listScripts } from "@bancada/scripts/domain/list-scripts";
import { startBenchStack, stopOnExit } from "./lib/stack.js";
import { ms, progress, rate, ratio, run, summarize, table, type Run } from "./lib/stats.js";
import { corpus, plant, rng, scriptText, scriptTitle, seriesNames, textLength } from "./lib/text.js";

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SCRIPTS = env("SCRIPTS", 100_000);
const OTHER_SCRIPTS = env("OTHER_SCRIPTS", 10_000);
const CALLS = env("CALLS", 200);
const WARMUP = env("WARMUP", 10);
const CASE_BUDGET_MS = env("CASE_BUDGET_MS", 5_000);
// The whole run (seeding included) aims to end within this; on a loaded machine the cases get fewer calls.
const TOTAL_BUDGET_MS = env("TOTAL_BUDGET_MS", 170_000);
// >0: after seeding, the TIE_GROUP most recent scripts of acct-a get one and the same updated_at (as a bulk import
// or a "touch every row" migration would leave them), to see what ties in the sort key cost.
const TIE_GROUP = env("TIE_GROUP", 0);
const MIN_CALLS = env("MIN_CALLS", 4);
// Session settings for the seeding connections only: fewer, larger GIN pending-list merges, no WAL flush wait.
const SEED_PG_OPTIONS =
  process.env.SEED_PG_OPTIONS ?? "-c gin_pending_list_limit=64MB -c work_mem=64MB -c maintenance_work_mem=256MB -c synchronous_commit=off";
const ROUNDS = 2;
const BATCH = 500;

const RARE = "quetzalcoatl";
const COMMON = "camera";
const TITLE_ONLY = seriesNames[0].toLowerCase();

interface Case {
  name: string;
  input: { query?: string; limit: number; offset: number };
}
const cases: Case[] = [
  { name: `rare word "${RARE}"`, input: { query: RARE, limit: 20, offset: 0 } },
  { name: `common word "${COMMON}"`, input: { query: COMMON, limit: 20, offset: 0 } },
  { name: `2 chars "qu"`, input: { query: "qu", limit: 20, offset: 0 } },
  { name: `2 chars, no match "xq"`, input: { query: "xq", limit: 20, offset: 0 } },
  { name: `title only "${seriesNames[0]}"`, input: { query: TITLE_ONLY, limit: 20, offset: 0 } },
  { name: "no query", input: { limit: 20, offset: 0 } },
  { name: `"${COMMON}", offset 5,000`, input: { query: COMMON, limit: 20, offset: 5_000 } },
];

/** The SQL of services/scripts/src/domain/list-scripts.ts with a query, as Prisma numbers the parameters. */
const listSql = `
    SELECT id::text, account_id, title, left(text, $1::int) AS preview, status::text AS status, revision,
           created_at, updated_at, deleted_at, created_by, updated_by
      FROM scripts
     WHERE account_id = $2 AND deleted_at IS NULL AND (title ILIKE $3 OR text ILIKE $4)
     ORDER BY updated_at DESC, id DESC
     LIMIT $5 OFFSET $6`;

const bench = await startBenchStack();
const stop = stopOnExit(bench);
let pool: pg.Pool | undefined;
try {
  const { stack, scripts, key, accountId, personId } = bench;
  const ctx = { db: scripts.db, accountId, personId };
  const loadStart = os.loadavg();
  pool = new pg.Pool({ connectionString: stack.database.url, max: 2, options: `-c search_path=scripts,public ${SEED_PG_OPTIONS}` });
  pool.on("error", (error) => progress(`pg pool: ${error.message}`));

  const seeded = await seed(pool, accountId);

  // The matches behind each case (one scan), so the latencies can be read against the result sizes.
  const counted = await pool.query<Record<string, string>>(
    `SELECT ${cases
      .map(
        (_, i) =>
          `count(*) FILTER (WHERE title ILIKE $${i + 2}) AS t${i}, count(*) FILTER (WHERE text ILIKE $${i + 2}) AS x${i}, ` +
          `count(*) FILTER (WHERE title ILIKE $${i + 2} OR text ILIKE $${i + 2}) AS m${i}`,
      )
      .join(", ")}
       FROM scripts WHERE account_id = $1 AND deleted_at IS NULL`,
    [accountId, ...cases.map((c) => `%${c.input.query ?? ""}%`)],
  );
  const matches = cases.map((_, i) => ({
    title: Number(counted.rows[0]![`t${i}`]),
    text: Number(counted.rows[0]![`x${i}`]),
    all: Number(counted.rows[0]![`m${i}`]),
  }));

  // Capture the SQL and parameters Prisma puts on the wire for listScripts (same pg module as the adapter).
  const captured: { text: string; values: unknown[] }[] = [];
  const originalQuery = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as { text?: string; values?: unknown[] } | string;
    if (typeof config === "object" && config?.text?.includes("FROM scripts"))
      captured.push({ text: config.text, values: config.values ?? [] });
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
  await listScripts(ctx, { query: RARE, limit: 20, offset: 0 });
  await listScripts(ctx, { limit: 20, offset: 0 });
  pg.Client.prototype.query = originalQuery;
  const [wire, wireNoQuery] = captured;
  if (!wire || !wireNoQuery || !wire.text.includes("ILIKE")) throw new Error("could not capture the SQL listScripts sends");
  const normalize = (sql: string) => sql.replace(/\s+/g, " ").trim();
  const sameShape = normalize(wire.text) === normalize(listSql);
  if (!sameShape) progress(`note: Prisma sent different SQL than the hand-written copy:\n${wire.text}`);

  const client = await connectClient(stack.mcpUrl, key);
  const viaMcp = async (input: Case["input"]) => {
    const result = await client.callTool({ name: "list_scripts", arguments: input });
    if (result.isError) throw new Error(`mcp: ${JSON.stringify(result.structuredContent)}`);
    return result.structuredContent as { scripts: { id: string }[] };
  };
  const viaDomain = (input: Case["input"]) => listScripts(ctx, input);

  // Same answers both ways (first page ids).
  for (const c of cases.filter((x) => x.name !== cases[3]!.name)) {
    const [a, b] = [await viaMcp(c.input), await viaDomain(c.input)];
    if (JSON.stringify(a.scripts.map((s) => s.id)) !== JSON.stringify(b.scripts.map((s) => s.id)))
      throw new Error(`${c.name}: MCP and in-process pages differ`);
  }

  // EXPLAIN (ANALYZE, BUFFERS) of the exact statement listScripts sent, with each case's parameters; an unnamed
  // statement like Prisma's, so a custom plan for these values. Run before the timed calls (it warms the same cache).
  progress("EXPLAIN (ANALYZE, BUFFERS) per case");
  const plans: string[] = [];
  const whatIf: string[] = [];
  const fullPlanCases = new Set([cases[0]!.name, cases[1]!.name, cases[3]!.name, cases[6]!.name]);
  const fullPlans: string[] = [];
  const paramsFor = (c: Case): { sql: string; values: unknown[] } => {
    const base = c.input.query ? wire : wireNoQuery;
    const values = [...base.values];
    // Positions as Prisma numbers them: preview length, account, [pattern, pattern,] limit + 1, offset.
    const at = c.input.query ? 4 : 2;
    if (c.input.query) values[2] = values[3] = `%${c.input.query.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    values[at] = typeof base.values[at] === "string" ? String(c.input.limit + 1) : c.input.limit + 1;
    values[at + 1] = typeof base.values[at + 1] === "string" ? String(c.input.offset) : c.input.offset;
    return { sql: base.text, values };
  };
  const explainClient = await pool.connect();
  try {
    await explainClient.query("SET search_path TO scripts, public");
    const explain = async (sql: string, values: unknown[]) =>
      (await explainClient.query<{ "QUERY PLAN": ExplainJson[] }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, values)).rows[0]![
        "QUERY PLAN"
      ][0]!;
    for (const c of cases) {
      const { sql, values } = paramsFor(c);
      const root = await explain(sql, values);
      plans.push(
        `- ${c.name}: ${describePlan(root.Plan)} — execution ${root["Execution Time"].toFixed(1)} ms, planning ${root["Planning Time"].toFixed(1)} ms, buffers ${buffers(root.Plan)}`,
      );
      if (fullPlanCases.has(c.name)) {
        fullPlans.push(
          `EXPLAIN (ANALYZE, BUFFERS) — ${c.name} (from FORMAT JSON):\n${renderPlan(root.Plan)
            .map((line) => `    ${line}`)
            .join(
              "\n",
            )}\n    Planning Time: ${root["Planning Time"].toFixed(3)} ms\n    Execution Time: ${root["Execution Time"].toFixed(3)} ms`,
        );
      }
    }
    // The same statements with the tie-break on the uuid column instead of the `id::text` output column (a bare
    // `id` in ORDER BY names the SELECT list's `id::text AS id`): same rows, no Incremental Sort.
    for (const c of [cases[1]!, cases[5]!, cases[6]!]) {
      const { sql, values } = paramsFor(c);
      const uuidOrder = sql.replace(/ORDER BY updated_at DESC, id DESC/, "ORDER BY scripts.updated_at DESC, scripts.id DESC");
      if (uuidOrder === sql) continue;
      const root = await explain(uuidOrder, values);
      whatIf.push(
        `- ${c.name}: ${describePlan(root.Plan)} — execution ${root["Execution Time"].toFixed(1)} ms, buffers ${buffers(root.Plan)}`,
      );
    }
  } finally {
    explainClient.release();
  }

  const rows: string[][] = [];
  for (const [i, c] of cases.entries()) {
    // Per path: at most CASE_BUDGET_MS, less when the run would otherwise pass TOTAL_BUDGET_MS (a loaded machine).
    const left = TOTAL_BUDGET_MS - performance.now() - 3_000;
    const perPath = Math.max(500, Math.min(CASE_BUDGET_MS, left / ((cases.length - i) * 2 * 1.25)));
    progress(`case ${i + 1}/${cases.length}: ${c.name} (≤ ${(perPath / 1000).toFixed(1)} s per path)`);
    const paths = [
      { name: "mcp", call: () => viaMcp(c.input).then(() => undefined) },
      { name: "inproc", call: () => viaDomain(c.input).then(() => undefined) },
    ];
    for (const path of paths) await run(WARMUP, 1, path.call, { budgetMs: perPath / 4, minCalls: 1 });
    const runs = new Map<string, Run[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const path of round % 2 === 0 ? paths : [...paths].reverse()) {
        const result = await run(Math.ceil(CALLS / ROUNDS), 1, path.call, {
          budgetMs: perPath / ROUNDS,
          minCalls: Math.ceil(MIN_CALLS / ROUNDS),
        });
        runs.set(path.name, [...(runs.get(path.name) ?? []), result]);
      }
    }
    const mcp = summarize(runs.get("mcp")!);
    const inproc = summarize(runs.get("inproc")!);
    const m = matches[i]!;
    rows.push([
      c.name,
      c.input.query ? `${rate(m.all)} (title ${rate(m.title)}, text ${rate(m.text)})` : rate(m.all),
      `${mcp.calls}/${inproc.calls}`,
      ms(mcp.p50),
      ms(mcp.p99),
      ms(inproc.p50),
      ms(inproc.p99),
      ratio(mcp.p50 / inproc.p50),
      ms(mcp.p50 - inproc.p50),
    ]);
  }

  const loadEnd = os.loadavg();
  console.log(`\n## list-scripts — ${new Date().toISOString()}`);
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, loadavg ${loadStart.map((v) => v.toFixed(2)).join("/")} → ${loadEnd.map((v) => v.toFixed(2)).join("/")}; ` +
      `${rate(SCRIPTS)} scripts for ${accountId} + ${rate(OTHER_SCRIPTS)} for acct-b (${seeded.deleted} in the trash), text avg ${seeded.avgText} chars ` +
      `(${seeded.tableSize} table+TOAST, indexes: ${seeded.indexSizes}); seeded in ${(seeded.ms / 1000).toFixed(1)} s; ` +
      `bus ${stack.bus.kind}; sequential calls, one MCP Client; page size 20${TIE_GROUP > 0 ? `; TIE_GROUP ${TIE_GROUP}` : ""}.\n`,
  );
  console.log(
    table(
      [
        "case",
        "matches (acct-a, not trashed)",
        "calls MCP/in-proc",
        "MCP p50 ms",
        "MCP p99 ms",
        "in-proc p50 ms",
        "in-proc p99 ms",
        "MCP/in-proc p50",
        "MCP − in-proc p50 ms",
      ],
      rows,
      2,
    ),
  );
  console.log(
    `\nPlans (EXPLAIN (ANALYZE, BUFFERS) of the SQL listScripts sends${sameShape ? ", identical to services/scripts/src/domain/list-scripts.ts" : ""}, custom plan per call):\n`,
  );
  console.log(plans.join("\n"));
  if (whatIf.length > 0) {
    console.log("\nWhat-if (not what the service runs): the same statements with ORDER BY scripts.updated_at DESC, scripts.id DESC:\n");
    console.log(whatIf.join("\n"));
  }
  console.log(`\n${fullPlans.join("\n\n")}`);
  await client.close();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await pool?.end().catch(() => undefined);
  await stop();
}

interface ExplainNode {
  "Node Type": string;
  "Parent Relationship"?: string;
  "Actual Startup Time"?: number;
  "Index Cond"?: string;
  "Recheck Cond"?: string;
  Filter?: string;
  "Exact Heap Blocks"?: number;
  "Workers Launched"?: number;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Actual Total Time"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  "Sort Method"?: string;
  "Sort Key"?: string[];
  "Presorted Key"?: string[];
  Plans?: ExplainNode[];
}
interface ExplainJson {
  Plan: ExplainNode;
  "Execution Time": number;
  "Planning Time": number;
}

function describePlan(node: ExplainNode): string {
  const what = node["Index Name"] ?? node["Relation Name"];
  const removed = (node["Rows Removed by Filter"] ?? 0) + (node["Rows Removed by Index Recheck"] ?? 0);
  const sort = node["Sort Key"]
    ? ` by ${node["Sort Key"].join(", ")}${node["Presorted Key"] ? ` (presorted ${node["Presorted Key"].join(", ")})` : ""}`
    : "";
  const label = `${node["Node Type"]}${what ? ` ${what}` : ""}${sort} [rows ${node["Actual Rows"]}${removed ? `, removed ${rate(removed)}` : ""}, ${node["Actual Total Time"]?.toFixed(1)} ms]`;
  const children = node.Plans ?? [];
  if (children.length === 0) return label;
  if (children.length === 1) return `${label} → ${describePlan(children[0]!)}`;
  return `${label} → (${children.map(describePlan).join(" + ")})`;
}

/** EXPLAIN's text layout, rebuilt from FORMAT JSON (so each statement runs once). */
function renderPlan(node: ExplainNode, depth = 0): string[] {
  const indent = depth === 0 ? "" : `${"      ".repeat(depth - 1)}  ->  `;
  const detail = depth === 0 ? "  " : `${"      ".repeat(depth)}  `;
  const on =
    node["Index Name"] && node["Relation Name"]
      ? ` using ${node["Index Name"]} on ${node["Relation Name"]}`
      : node["Index Name"]
        ? ` on ${node["Index Name"]}`
        : node["Relation Name"]
          ? ` on ${node["Relation Name"]}`
          : "";
  const lines = [
    `${indent}${node["Node Type"]}${on}  (actual time=${node["Actual Startup Time"]?.toFixed(3)}..${node["Actual Total Time"]?.toFixed(3)} rows=${node["Actual Rows"]} loops=${node["Actual Loops"]})`,
  ];
  const add = (label: string, value: unknown) => {
    if (value !== undefined && value !== null && value !== 0)
      lines.push(`${detail}${label}: ${Array.isArray(value) ? value.join(", ") : String(value)}`);
  };
  add("Index Cond", node["Index Cond"]);
  add("Recheck Cond", node["Recheck Cond"]);
  add("Filter", node.Filter);
  add("Rows Removed by Filter", node["Rows Removed by Filter"]);
  add("Rows Removed by Index Recheck", node["Rows Removed by Index Recheck"]);
  add("Sort Key", node["Sort Key"]);
  add("Presorted Key", node["Presorted Key"]);
  add("Sort Method", node["Sort Method"]);
  add("Heap Blocks exact", node["Exact Heap Blocks"]);
  add("Workers Launched", node["Workers Launched"]);
  lines.push(`${detail}Buffers: ${buffers(node)}`);
  for (const child of node.Plans ?? []) lines.push(...renderPlan(child, depth + 1));
  return lines;
}

function buffers(node: ExplainNode): string {
  return `hit=${rate(node["Shared Hit Blocks"] ?? 0)} read=${rate(node["Shared Read Blocks"] ?? 0)}`;
}

/** Multi-row INSERTs (BATCH rows a statement, two connections), rows in creation order, accounts interleaved. */
async function seed(pool: pg.Pool, accountA: string) {
  const started = performance.now();
  const random = rng(2026);
  const words = corpus(random);
  const total = SCRIPTS + OTHER_SCRIPTS;
  progress(`seeding ${rate(SCRIPTS)} scripts for ${accountA} and ${rate(OTHER_SCRIPTS)} for acct-b (${BATCH} rows per INSERT)`);

  // A pool of lines to draw texts from (fast, and still a large vocabulary for the trigram indexes).
  const lines = scriptText(words, random, 6_000_000).split("\n");
  const text = (length: number) => {
    const parts: string[] = [];
    let size = 0;
    while (size < length) {
      const line = lines[Math.floor(random() * lines.length)]!;
      parts.push(line);
      size += line.length + 1;
    }
    return parts.join("\n");
  };
  const pickSet = (n: number, of: number) => {
    const set = new Set<number>();
    while (set.size < Math.min(n, of)) set.add(Math.floor(random() * of));
    return set;
  };
  const rareA = pickSet(25, SCRIPTS);
  const rareB = pickSet(5, OTHER_SCRIPTS);
  const statuses = ["draft", "draft", "draft", "draft", "ready", "ready", "ready", "review", "review", "completed"] as const;
  const now = Date.now();
  const span = 2 * 365 * 24 * 3600_000;

  let leftA = SCRIPTS;
  let leftB = OTHER_SCRIPTS;
  let deleted = 0;
  let done = 0;
  let nextLog = 10_000;
  const inFlight = new Set<Promise<void>>();
  const flush = async (batch: unknown[][]) => {
    const values: unknown[] = [];
    const tuples = batch.map((row, r) => {
      values.push(...row);
      return `(${row.map((_, c) => `$${r * row.length + c + 1}`).join(", ")})`;
    });
    await pool.query(
      `INSERT INTO scripts (id, account_id, title, text, status, revision, created_at, updated_at, deleted_at, created_by, updated_by) VALUES ${tuples.join(", ")}`,
      values,
    );
    done += batch.length;
    if (done >= nextLog) {
      progress(`  ${rate(done)} / ${rate(total)} rows (${((performance.now() - started) / 1000).toFixed(1)} s)`);
      nextLog += 10_000;
    }
  };
  let batch: unknown[][] = [];
  for (let i = 0; i < total; i++) {
    const isA = random() * (leftA + leftB) < leftA;
    const index = isA ? SCRIPTS - leftA : OTHER_SCRIPTS - leftB;
    if (isA) leftA--;
    else leftB--;
    const createdAt = now - span + (span * i) / total;
    const edited = random() < 0.7;
    const updatedAt = edited ? createdAt + random() * Math.min(60 * 24 * 3600_000, now - createdAt) : createdAt;
    const trashed = random() < 0.02;
    if (trashed) deleted++;
    let body = text(textLength(random));
    if ((isA ? rareA : rareB).has(index)) body = plant(body, RARE, random);
    const series = random() < 0.3 ? seriesNames[Math.floor(random() * seriesNames.length)] : undefined;
    const author = `person-${"abcde"[Math.floor(random() * 5)]}`;
    batch.push([
      randomUUID(),
      isA ? accountA : "acct-b",
      scriptTitle(words, random, series),
      body,
      statuses[Math.floor(random() * statuses.length)],
      edited ? 2 + Math.floor(random() * 10) : 1,
      new Date(createdAt),
      new Date(updatedAt),
      trashed ? new Date(updatedAt) : null,
      author,
      edited ? `person-${"abcde"[Math.floor(random() * 5)]}` : author,
    ]);
    if (batch.length === BATCH || i === total - 1) {
      const pending = flush(batch).finally(() => inFlight.delete(pending));
      inFlight.add(pending);
      batch = [];
      if (inFlight.size >= 2) await Promise.race(inFlight);
    }
  }
  await Promise.all(inFlight);
  progress(`inserted in ${((performance.now() - started) / 1000).toFixed(1)} s; VACUUM (ANALYZE) scripts`);
  if (TIE_GROUP > 0) {
    await pool.query(
      `UPDATE scripts SET updated_at = date_trunc('second', now())
        WHERE id IN (SELECT id FROM scripts WHERE account_id = $1 ORDER BY updated_at DESC LIMIT $2)`,
      [accountA, TIE_GROUP],
    );
    progress(`tie group: the ${TIE_GROUP} most recent scripts of ${accountA} now share one updated_at`);
  }
  // ANALYZE for the planner's statistics; VACUUM too, because a manual ANALYZE does not merge the GIN
  // fast-update pending lists (autovacuum would, on a table that has been around) and it sets the visibility map.
  await pool.query("VACUUM (ANALYZE) scripts");
  const stats = await pool.query<{ avg: string; table: string; indexes: string }>(
    `SELECT round(avg(length(text)))::text AS avg, pg_size_pretty(pg_table_size('scripts')) AS table,
            (SELECT string_agg(indexrelname || ' ' || pg_size_pretty(pg_relation_size(indexrelid)), ', ' ORDER BY indexrelname)
               FROM pg_stat_user_indexes WHERE relname = 'scripts') AS indexes
       FROM scripts`,
  );
  const elapsed = performance.now() - started;
  progress(`seeded in ${(elapsed / 1000).toFixed(1)} s`);
  return { ms: elapsed, deleted, avgText: stats.rows[0]!.avg, tableSize: stats.rows[0]!.table, indexSizes: stats.rows[0]!.indexes };
}
