/**
 * What tracing costs a `get_script` call through the gateway (MCP → gateway → NATS → service → Postgres, all in
 * this process), in one run:
 *   off   no OTLP endpoint: the shipped default (no SDK loaded; `withSpan` returns at once)
 *   on    startTelemetry, exporting every span over OTLP/HTTP protobuf to a loopback receiver that discards them
 * Off is measured first (once the SDK has patched pg and http it cannot be unloaded), each phase on a fresh stack.
 * Besides, the span helpers the call path runs while off are timed alone, a million times: what "off" adds to a call.
 *
 * Env: SCRIPTS (200), WARMUP (200), SEQ_CALLS (1000), CONC_CALLS (2000), IN_FLIGHT (16), TOTAL_BUDGET_MS (120000).
 */
import "./lib/env.js";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { connectClient } from "@bancada/testkit";
import { activeTraceId, activeTraceparent, callParent, startTelemetry, withSpan } from "@bancada/service-kit";
import { createScript } from "@bancada/scripts/domain/create-script";
import { startBenchStack, stopOnExit } from "./lib/stack.js";
import { ms, progress, rate, run, summarize, table, type Summary } from "./lib/stats.js";

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SCRIPTS = env("SCRIPTS", 200);
const WARMUP = env("WARMUP", 200);
const SEQ_CALLS = env("SEQ_CALLS", 1_000);
const CONC_CALLS = env("CONC_CALLS", 2_000);
const IN_FLIGHT = env("IN_FLIGHT", 16);
const TOTAL_BUDGET_MS = env("TOTAL_BUDGET_MS", 120_000);

// the helpers' cost while off, before anything starts the SDK
const helperNs = await timeHelpers(1_000_000);

// a collector that takes every export and keeps nothing
let exports = 0;
let exportedBytes = 0;
const receiver = createServer((req, res) => {
  req.on("data", (chunk: Buffer) => (exportedBytes += chunk.length));
  req.on("end", () => {
    exports++;
    res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));

const phases = ["off", "on"] as const;
const results = new Map<string, Summary & { cpuPerCall: number }>();
const slotBudget = TOTAL_BUDGET_MS / (phases.length * 2);
const loadStart = os.loadavg();
let bus = "";
try {
  for (const phase of phases) {
    if (phase === "on") {
      // between two stacks, with nothing in flight: in one process, the SDK's loading holds the event loop long
      // enough for the bus to give up calls that are running meanwhile (a real process starts it before serving)
      process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/v1/traces`;
      process.env.OTEL_BSP_SCHEDULE_DELAY ??= "200";
      await startTelemetry({ serviceName: "bancada-bench", protocol: "http/protobuf" });
    }
    bus = await measure(phase);
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  if (exports === 0) throw new Error("tracing was on but no spans reached the receiver");
} finally {
  receiver.close();
}

const rows: string[][] = [];
for (const mode of ["sequential", `${IN_FLIGHT} in flight`]) {
  for (const phase of phases) {
    const s = results.get(`${phase}|${mode}`)!;
    rows.push([`tracing ${phase}`, mode, rate(s.calls), ms(s.p50), ms(s.p90), ms(s.p99), rate(s.perSecond), ms(s.cpuPerCall)]);
  }
}
const loadEnd = os.loadavg();
console.log(`\n## tracing-cost — ${new Date().toISOString()}`);
console.log(
  `node ${process.version}, ${os.cpus().length} cores, loadavg ${loadStart.map((v) => v.toFixed(2)).join("/")} → ${loadEnd.map((v) => v.toFixed(2)).join("/")}; ` +
    `bus ${bus}; client, gateway and service share one Node process (a fresh stack per phase); on: ${exports} OTLP exports, ${Math.round(exportedBytes / 1024)} KiB.\n`,
);
console.log(table(["get_script via MCP", "mode", "calls", "p50 ms", "p90 ms", "p99 ms", "calls/s", "node CPU ms/call"], rows, 2));
console.log(
  `\nWhile off, the span helpers a call runs (3 withSpan-wrapped steps, inject, trace id) take ${helperNs.toFixed(0)} ns per call.`,
);

/** One phase on a stack of its own: seed, warm up, then sequential and in-flight calls. Returns the bus kind. */
async function measure(phase: (typeof phases)[number]): Promise<string> {
  const bench = await startBenchStack();
  const stop = stopOnExit(bench);
  try {
    const { stack, scripts, key, accountId, personId } = bench;
    progress(`${phase}: seeding ${SCRIPTS} scripts`);
    const ids: string[] = [];
    await run(SCRIPTS, 8, async (i) => {
      const script = await createScript(
        { db: scripts.db, accountId, personId },
        { title: `script ${i}`, text: `text ${i}`, status: "draft" },
      );
      ids.push(script.id);
    });
    const clients = await Promise.all(Array.from({ length: IN_FLIGHT }, () => connectClient(stack.mcpUrl, key)));
    const call = async (i: number, worker: number) => {
      const id = ids[i % ids.length]!;
      const result = await clients[worker]!.callTool({ name: "get_script", arguments: { id } });
      if (result.isError) throw new Error(`get_script: ${JSON.stringify(result.structuredContent)}`);
      if ((result.structuredContent as { script?: { id?: string } }).script?.id !== id) throw new Error(`get_script: not script ${id}`);
    };
    progress(`${phase}: warm-up`);
    await run(WARMUP, IN_FLIGHT, call);
    for (const [mode, total, inFlight] of [
      ["sequential", SEQ_CALLS, 1],
      [`${IN_FLIGHT} in flight`, CONC_CALLS, IN_FLIGHT],
    ] as const) {
      const cpu = process.cpuUsage();
      const result = await run(total, inFlight, call, { budgetMs: slotBudget, minCalls: 100 });
      const used = process.cpuUsage(cpu);
      const summary = summarize([result]);
      results.set(`${phase}|${mode}`, { ...summary, cpuPerCall: (used.user + used.system) / 1000 / summary.calls });
      progress(`${phase}, ${mode}: ${summary.calls} calls`);
    }
    await Promise.all(clients.map((client) => client.close()));
    return stack.bus.kind;
  } finally {
    await stop();
  }
}

/** ns per call of what the gateway and the tool host run for tracing while it is off. */
async function timeHelpers(iterations: number): Promise<number> {
  const body = () => Promise.resolve(1);
  const once = async () => {
    callParent(undefined);
    await withSpan("tools/call get_script", { attributes: { "bancada.tool": "get_script" } }, () =>
      withSpan("send bancada.scripts.call", {}, async () => {
        activeTraceparent();
        return withSpan("process bancada.scripts.call", { headers: {} }, body);
      }),
    );
    activeTraceId();
  };
  const baseline = async () => {
    await body();
  };
  const time = async (fn: () => Promise<unknown>) => {
    const started = performance.now();
    for (let i = 0; i < iterations; i++) await fn();
    return ((performance.now() - started) * 1e6) / iterations;
  };
  await time(once);
  await time(baseline);
  return (await time(once)) - (await time(baseline));
}
