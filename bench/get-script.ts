/**
 * Reading one script by id, three ways side by side in the same run:
 *   mcp      get_script through the gateway: MCP SDK Client over Streamable HTTP → gateway → NATS → service → Postgres
 *   rest     GET /v1/scripts/:id with the bearer key (the service's REST routes, mounted on the gateway's port)
 *   inproc   getScript(ctx, id) in-process with the service's own Prisma client
 * plus, to split the difference, `host` = the service's tool host called in-process (zod in/out, no HTTP, no bus).
 *
 * Each path sequentially and with N calls in flight; the calls are split into rounds and the paths take turns
 * (rotating order), so drift (autovacuum, other work on the machine) spreads over all paths alike.
 *
 * Env: SCRIPTS (1000), WARMUP (200), SEQ_CALLS (2000), CONC_CALLS (4000), IN_FLIGHT (32), ROUNDS (4),
 *      MCP_CLIENTS (= IN_FLIGHT: one Client per in-flight slot, like that many agents; 1 = one shared Client),
 *      PATHS (mcp,rest,host,inproc: a subset, e.g. for profiling one path with --cpu-prof),
 *      TOTAL_BUDGET_MS (170000; rounds are cut short, never below 100 calls, to end within it).
 */
import "./lib/env.js";
import os from "node:os";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "@bancada/testkit";
import { createScript } from "@bancada/scripts/domain/create-script";
import { getScript } from "@bancada/scripts/domain/get-script";
import type { Principal } from "@bancada/contracts";
import { startBenchStack, stopOnExit } from "./lib/stack.js";
import { ms, progress, rate, ratio, run, summarize, table, type Run, type Summary } from "./lib/stats.js";
import { corpus, rng, scriptText, scriptTitle, textLength } from "./lib/text.js";

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SCRIPTS = env("SCRIPTS", 1_000);
const WARMUP = env("WARMUP", 200);
const SEQ_CALLS = env("SEQ_CALLS", 2_000);
const CONC_CALLS = env("CONC_CALLS", 4_000);
const IN_FLIGHT = env("IN_FLIGHT", 32);
const ROUNDS = env("ROUNDS", 4);
const MCP_CLIENTS = env("MCP_CLIENTS", IN_FLIGHT);
// The whole run aims to end within this: on a loaded machine each round stops early (after at least 100 calls).
const TOTAL_BUDGET_MS = env("TOTAL_BUDGET_MS", 170_000);

type PathName = "mcp" | "rest" | "host" | "inproc";
interface Path {
  name: PathName;
  label: string;
  call(id: string, worker: number, inFlight: number): Promise<void>;
}

const bench = await startBenchStack();
const stop = stopOnExit(bench);
try {
  const { stack, scripts, key, accountId, personId } = bench;
  const ctx = { db: scripts.db, accountId, personId };
  const loadStart = os.loadavg();

  // Seed through the domain function (a transaction per script, with its change-feed entry), 8 at a time.
  progress(`seeding ${SCRIPTS} scripts for ${accountId}`);
  const random = rng(42);
  const words = corpus(random, 2_000);
  const ids: string[] = [];
  await run(SCRIPTS, 8, async () => {
    const script = await createScript(ctx, {
      title: scriptTitle(words, random),
      text: scriptText(words, random, textLength(random)),
      status: "draft",
    });
    ids.push(script.id);
  });
  const sizes = await scripts.db.$queryRaw<
    { avg: number; max: number }[]
  >`SELECT avg(length(text))::float8 AS avg, max(length(text)) AS max FROM scripts`;
  progress(`seeded; text length avg ${Math.round(sizes[0]!.avg)}, max ${sizes[0]!.max} chars`);

  // The same random ids for every path.
  const pick = rng(7);
  const sequence = Array.from({ length: Math.max(SEQ_CALLS, CONC_CALLS, WARMUP) }, () => ids[Math.floor(pick() * ids.length)]!);

  const principal: Principal | null = await stack.gateway.keys.resolve(key);
  if (!principal) throw new Error("the key did not resolve");
  const clientCount = Math.max(1, Math.min(MCP_CLIENTS, IN_FLIGHT));
  const clients: Client[] = [];
  for (let i = 0; i < clientCount; i++) clients.push(await connectClient(stack.mcpUrl, key));
  const headers = { Authorization: `Bearer ${key}` };

  const expectId = (got: string | undefined, id: string, path: string) => {
    if (got !== id) throw new Error(`${path}: expected script ${id}, got ${String(got)}`);
  };
  const allPaths: Path[] = [
    {
      name: "mcp",
      label: `MCP get_script (gateway → ${stack.bus.kind === "nats" ? "NATS" : "in-process bus"} → service)`,
      async call(id, worker, inFlight) {
        // Sequential: one Client. In flight: worker w uses Client w % clientCount.
        const client = clients[inFlight === 1 ? 0 : worker % clientCount]!;
        const result = await client.callTool({ name: "get_script", arguments: { id } });
        if (result.isError) throw new Error(`mcp: ${JSON.stringify(result.structuredContent)}`);
        expectId((result.structuredContent as { script?: { id?: string } }).script?.id, id, "mcp");
      },
    },
    {
      name: "rest",
      label: "REST GET /v1/scripts/:id",
      async call(id) {
        const response = await fetch(`${stack.baseUrl}/v1/scripts/${id}`, { headers });
        const body = (await response.json()) as { script?: { id?: string } };
        if (response.status !== 200) throw new Error(`rest: HTTP ${response.status} ${JSON.stringify(body)}`);
        expectId(body.script?.id, id, "rest");
      },
    },
    {
      name: "host",
      label: "tool host in-process (zod in/out, no bus)",
      async call(id) {
        const reply = await scripts.host.call("get_script", { id }, principal);
        if (!reply.ok) throw new Error(`host: ${JSON.stringify(reply.error)}`);
        expectId((reply.result as { script?: { id?: string } }).script?.id, id, "host");
      },
    },
    {
      name: "inproc",
      label: "getScript(ctx, id) in-process (Prisma)",
      async call(id) {
        expectId((await getScript(ctx, id)).id, id, "inproc");
      },
    },
  ];

  const only = process.env.PATHS?.split(",").map((name) => name.trim());
  const paths = allPaths.filter((path) => !only || only.includes(path.name));

  progress(`warm-up: ${WARMUP} sequential + ${WARMUP} at ${IN_FLIGHT} in flight per path`);
  for (const path of paths) {
    await run(WARMUP, 1, (i, w) => path.call(sequence[i]!, w, 1));
    await run(WARMUP, IN_FLIGHT, (i, w) => path.call(sequence[i]!, w, IN_FLIGHT));
  }

  const results = new Map<string, { runs: Run[]; cpuMs: number }>();
  let slotsLeft = 2 * ROUNDS * paths.length;
  for (const [mode, total, inFlight] of [
    ["sequential", SEQ_CALLS, 1],
    [`${IN_FLIGHT} in flight`, CONC_CALLS, IN_FLIGHT],
  ] as const) {
    const perRound = Math.ceil(total / ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      const order = paths.map((_, i) => paths[(i + round) % paths.length]!);
      for (const path of order) {
        const cpu = process.cpuUsage();
        const offset = round * perRound;
        const budgetMs = Math.max(1_000, (TOTAL_BUDGET_MS - 2_000 - performance.now()) / slotsLeft--);
        const result = await run(perRound, inFlight, (i, w) => path.call(sequence[(offset + i) % sequence.length]!, w, inFlight), {
          budgetMs,
          minCalls: 100,
        });
        const used = process.cpuUsage(cpu);
        const entry = results.get(`${path.name}|${mode}`) ?? { runs: [], cpuMs: 0 };
        entry.runs.push(result);
        entry.cpuMs += (used.user + used.system) / 1000;
        results.set(`${path.name}|${mode}`, entry);
      }
      progress(`${mode}: round ${round + 1}/${ROUNDS} done`);
    }
  }

  const summaries = new Map<string, Summary & { cpuPerCall: number }>();
  for (const [name, entry] of results) {
    const summary = summarize(entry.runs);
    summaries.set(name, { ...summary, cpuPerCall: entry.cpuMs / summary.calls });
  }
  const modes = ["sequential", `${IN_FLIGHT} in flight`];
  const rows: string[][] = [];
  for (const mode of modes) {
    for (const path of paths) {
      const s = summaries.get(`${path.name}|${mode}`)!;
      rows.push([path.label, mode, rate(s.calls), ms(s.p50), ms(s.p90), ms(s.p99), rate(s.perSecond), ms(s.cpuPerCall)]);
    }
  }

  const loadEnd = os.loadavg();
  console.log(`\n## get-script — ${new Date().toISOString()}`);
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, loadavg ${loadStart.map((v) => v.toFixed(2)).join("/")} → ${loadEnd.map((v) => v.toFixed(2)).join("/")}; ` +
      `${SCRIPTS} scripts (avg ${Math.round(sizes[0]!.avg)} chars), bus ${stack.bus.kind}; ` +
      `MCP in flight: ${clientCount} Client instance(s) (${IN_FLIGHT / clientCount} calls each), sequential: 1 Client; ` +
      `client, gateway and service share one Node process.\n`,
  );
  console.log(table(["path", "mode", "calls", "p50 ms", "p90 ms", "p99 ms", "calls/s", "node CPU ms/call"], rows, 2));

  const ratioRows: string[][] = [];
  for (const mode of modes) {
    const mcp = summaries.get(`mcp|${mode}`);
    const rest = summaries.get(`rest|${mode}`);
    const inproc = summaries.get(`inproc|${mode}`);
    if (!mcp || !rest || !inproc) continue;
    ratioRows.push([
      mode,
      ratio(mcp.p50 / inproc.p50),
      ratio(mcp.p50 / rest.p50),
      ratio(mcp.p99 / inproc.p99),
      ms(mcp.p50 - inproc.p50),
      ratio(mcp.perSecond / inproc.perSecond),
      ratio(mcp.perSecond / rest.perSecond),
    ]);
  }
  console.log("\nGateway's added cost (MCP vs the others):\n");
  console.log(
    table(
      [
        "mode",
        "MCP p50 / in-proc p50",
        "MCP p50 / REST p50",
        "MCP p99 / in-proc p99",
        "MCP − in-proc p50 ms",
        "MCP / in-proc calls/s",
        "MCP / REST calls/s",
      ],
      ratioRows,
    ),
  );
  for (const client of clients) await client.close();
} finally {
  await stop();
}
