/**
 * Throughput of the rehearsal cluster (not run by CI): get_script and create_script through 1 and 2 gateways
 * with 2 scripts replicas, then with 1 (the second stopped), then the failover gap when a gateway is killed.
 * Prints p50/p99 and calls/s; fails on any error. `pnpm --filter @bancada/infra bench` (DATABASE_URL or embedded).
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Caller, percentile, readCluster, runCluster } from "./load.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const workers = Number(process.env.BENCH_WORKERS ?? 8);
const dir = mkdtempSync(path.join(tmpdir(), "bancada-bench-"));
const env = { ...process.env };
if (env.DATABASE_URL) {
  const url = new URL(env.DATABASE_URL);
  url.pathname = `/bancada_bench_${Date.now().toString(36)}`;
  env.DATABASE_URL = url.toString();
}

async function measure(label: string, gateways: string[], apiKey: string, tool: "get_script" | "create_script", id: string): Promise<void> {
  const latencies: number[] = [];
  const until = Date.now() + seconds * 1000;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, index) => {
      const caller = new Caller(gateways, apiKey, index);
      try {
        while (Date.now() < until) {
          const args = tool === "get_script" ? { id } : { title: `bench ${index}`, text: "bench", idempotencyKey: randomUUID() };
          const t = performance.now();
          const outcome = await caller.call(tool, args);
          if (outcome.kind !== "ok") throw new Error(`${label} ${tool}: ${JSON.stringify(outcome)}`);
          latencies.push(performance.now() - t);
        }
      } finally {
        await caller.close();
      }
    }),
  );
  const rate = latencies.length / ((Date.now() - started) / 1000);
  console.log(
    `${label.padEnd(28)} ${tool.padEnd(14)} ${String(Math.round(rate)).padStart(6)} calls/s  p50 ${percentile(latencies, 50).toFixed(1)} ms  p99 ${percentile(latencies, 99).toFixed(1)} ms`,
  );
}

/** The longest wait, over clients, between their last success before `kill` (3 s in) and their first success after it. */
async function failoverGap(gateways: string[], apiKey: string, id: string, kill: () => void): Promise<number> {
  let killedAt = 0;
  const timer = setTimeout(() => {
    killedAt = Date.now();
    kill();
  }, 3_000);
  const gaps: number[] = [];
  await Promise.all(
    Array.from({ length: workers }, async (_, index) => {
      const caller = new Caller(gateways, apiKey, index);
      let lastBefore = 0;
      let measured = false;
      try {
        for (const until = Date.now() + 10_000; Date.now() < until && !measured;) {
          const outcome = await caller.call("get_script", { id });
          if (outcome.kind !== "ok") continue;
          if (!killedAt) lastBefore = Date.now();
          else {
            gaps.push(Date.now() - lastBefore);
            measured = true;
          }
        }
      } finally {
        await caller.close();
      }
    }),
  );
  clearTimeout(timer);
  return Math.max(...gaps, 0);
}

async function main(): Promise<void> {
  await runCluster(
    ["up", "--dir", dir, "--env", "BANCADA_RATE_PER_SEC=1000000", "--env", "BANCADA_RATE_BURST=1000000", "--env", "LOG_LEVEL=warn"],
    env,
    180_000,
  );
  const cluster = readCluster(dir);
  try {
    const seedCaller = new Caller(cluster.gateways, cluster.apiKey, 0);
    const created = await seedCaller.call("create_script", { title: "bench", text: "x".repeat(2_000) });
    await seedCaller.close();
    if (created.kind !== "ok") throw new Error(JSON.stringify(created));
    const id = (created.data.script as { id: string }).id;
    console.log(`${workers} clients, ${seconds} s each`);
    for (const tool of ["get_script", "create_script"] as const) {
      await measure("2 gateways, 2 scripts", cluster.gateways, cluster.apiKey, tool, id);
      await measure("1 gateway,  2 scripts", cluster.gateways.slice(0, 1), cluster.apiKey, tool, id);
    }
    const second = cluster.processes.find((p) => p.component === "scripts" && p.n === 2)!;
    process.kill(second.pid, "SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    for (const tool of ["get_script", "create_script"] as const) {
      await measure("2 gateways, 1 scripts", cluster.gateways, cluster.apiKey, tool, id);
      await measure("1 gateway,  1 scripts", cluster.gateways.slice(0, 1), cluster.apiKey, tool, id);
    }
    const gateway = cluster.processes.find((p) => p.component === "gateway" && p.n === 1)!;
    const gap = await failoverGap(cluster.gateways, cluster.apiKey, id, () => process.kill(gateway.pid, "SIGKILL"));
    console.log(`failover gap (gateway-1 killed with SIGKILL): ${gap} ms`);
  } finally {
    await runCluster(["down", "--dir", dir, "--grace", "10"], env, 60_000).catch((error: Error) => console.error(error.message));
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
