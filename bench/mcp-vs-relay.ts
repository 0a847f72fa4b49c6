/**
 * The gateway's MCP path beside a bare relay doing the same read, in the same run:
 *   mcp-2025   POST /mcp tools/call get_script, 2025-era stateless request (SSE answer): key check, the route's
 *              fast path (the SDK's era classifier, no per-request SDK server; docs/gateway.md#speed),
 *              argument validation, rate limit, deadline, tagged bus call → scripts service (HMAC tag checked with
 *              the service's key, zod in/out, one pg query) → Postgres, audit and metrics
 *   mcp-2026   the same as a 2026-07-28 request (per-request _meta, Mcp-Method/Mcp-Name headers, JSON answer)
 *   relay      express → NATS request → a responder doing the same SELECT with pg → JSON (no auth, no MCP)
 * plus tools/list with the whole catalog of this stack, sequentially.
 *
 * The load comes from a worker thread (its own event loop) with plain HTTP keep-alive requests, the same for
 * every path, so the numbers are the server side's, not an SDK client's. Every answer is checked.
 * Env: SCRIPTS (500), CALLS (6000 per path per round), IN_FLIGHT (32), ROUNDS (3), PATHS (mcp-2025,mcp-2026,relay).
 * Profile the server: node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx mcp-vs-relay.ts (PATHS=mcp-2025).
 */
import "./lib/env.js";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { Worker } from "node:worker_threads";
import express from "express";
import pg from "pg";
import { createScript } from "@bancada/scripts/domain/create-script";
import { startBenchStack, stopOnExit } from "./lib/stack.js";
import { ms, progress, rate, ratio, summarize, table, type Run } from "./lib/stats.js";

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SCRIPTS = env("SCRIPTS", 500);
const CALLS = env("CALLS", 6_000);
const IN_FLIGHT = env("IN_FLIGHT", 32);
const ROUNDS = env("ROUNDS", 3);
const paths = (process.env.PATHS ?? "mcp-2025,mcp-2026,relay").split(",").map((path) => path.trim());

const bench = await startBenchStack();
const stop = stopOnExit(bench);
const closers: (() => Promise<void>)[] = [];
try {
  const { stack, scripts, key, accountId, personId } = bench;
  progress(`seeding ${SCRIPTS} scripts`);
  const ids: string[] = [];
  for (let i = 0; i < SCRIPTS; i++) {
    const script = await createScript(
      { db: scripts.db, accountId, personId },
      { title: `Script ${i}`, text: "word ".repeat(200 + (i % 400)), status: "draft" },
    );
    ids.push(script.id);
  }

  // The bare relay: the same read without MCP, auth, validation or audit — the floor the gateway is measured against.
  const pool = new pg.Pool({ connectionString: stack.database.url, max: 10, options: "-c search_path=scripts" });
  const relaySubject = `${stack.subjects.queue("bench")}.relay`;
  const responder = stack.bus.serve(relaySubject, async (message) => {
    const { id } = JSON.parse(Buffer.from(message.data).toString()) as { id: string };
    const { rows } = await pool.query(
      "SELECT id, title, text, status, revision, created_at, updated_at FROM scripts WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL",
      [id, accountId],
    );
    return { data: Buffer.from(JSON.stringify({ script: rows[0] })), headers: {} };
  });
  const relayApp = express();
  relayApp.post("/relay", express.json(), async (req, res) => {
    const reply = await stack.bus.request(relaySubject, Buffer.from(JSON.stringify({ id: req.body.id })), { timeoutMs: 5_000 });
    res.type("application/json").send(Buffer.from(reply.data));
  });
  const relayServer = relayApp.listen(0, "127.0.0.1");
  await new Promise((resolve) => relayServer.once("listening", resolve));
  closers.push(async () => {
    relayServer.close();
    relayServer.closeAllConnections();
    responder.unsubscribe();
    await pool.end();
  });
  const relayUrl = `http://127.0.0.1:${(relayServer.address() as AddressInfo).port}/relay`;

  const worker = new Worker(new URL("./lib/load-worker.mjs", import.meta.url), {
    workerData: { mcpUrl: stack.mcpUrl, relayUrl, key, ids },
  });
  closers.push(async () => void (await worker.terminate()));
  let nextJob = 0;
  const pending = new Map<number, (run: Run | { error: string }) => void>();
  worker.on("message", (message: { job: number; run?: Run; error?: string }) =>
    pending.get(message.job)?.(message.run ?? { error: message.error! }),
  );
  const load = (path: string, calls: number, inFlight: number) =>
    new Promise<Run>((resolve, reject) => {
      const job = nextJob++;
      pending.set(job, (result) => ("error" in result ? reject(new Error(result.error)) : resolve(result)));
      worker.postMessage({ job, path, calls, inFlight });
    });

  progress("warm-up");
  for (const path of paths) await load(path, 1_000, IN_FLIGHT);
  await load("tools-list", 200, 1);

  const results = new Map<string, { runs: Run[]; cpuMs: number }>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const path of paths.map((_, i) => paths[(i + round) % paths.length]!)) {
      const cpu = process.cpuUsage();
      const run = await load(path, CALLS, IN_FLIGHT);
      const used = process.cpuUsage(cpu);
      const entry = results.get(path) ?? { runs: [], cpuMs: 0 };
      entry.runs.push(run);
      entry.cpuMs += (used.user + used.system) / 1000;
      results.set(path, entry);
    }
    progress(`round ${round + 1}/${ROUNDS} done`);
  }
  const listRun = await load("tools-list", 1_000, 1);

  const summaries = new Map(
    [...results].map(([path, entry]) => [path, { ...summarize(entry.runs), cpuPerCall: entry.cpuMs / summarize(entry.runs).calls }]),
  );
  const relay = summaries.get("relay");
  console.log(`\n## mcp-vs-relay — ${new Date().toISOString()}`);
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, loadavg ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join("/")}; ${SCRIPTS} scripts; ${IN_FLIGHT} in flight; load from a worker thread (plain HTTP keep-alive); ` +
      `gateway, scripts service, relay and NATS client in one process; CPU = process CPU per call (includes the load worker).\n`,
  );
  const rows = [...summaries].map(([path, s]) => [
    path,
    rate(s.calls),
    ms(s.p50),
    ms(s.p90),
    ms(s.p99),
    rate(s.perSecond),
    ms(s.cpuPerCall),
    relay && path !== "relay" ? ratio(s.perSecond / relay.perSecond) : "",
    relay && path !== "relay" ? ms(s.p50 - relay.p50) : "",
  ]);
  console.log(table(["path", "calls", "p50 ms", "p90 ms", "p99 ms", "calls/s", "CPU ms/call", "× relay calls/s", "p50 added ms"], rows));
  const resets = [...results.values()].flatMap((entry) => entry.runs).reduce((sum, run) => sum + (run.resets ?? 0), 0);
  if (resets > 0) console.log(`\n${resets} request(s) sent again after their keep-alive connection was reset (none failed).`);
  const list = summarize([listRun]);
  console.log(`\ntools/list (${stack.gateway.catalog.tools().length} tools), sequential: p50 ${ms(list.p50)} ms, p99 ${ms(list.p99)} ms`);
} finally {
  for (const close of closers.reverse()) await close().catch(() => {});
  await stop();
}
