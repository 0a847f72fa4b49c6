/**
 * What the gateway's REST relay adds (gateway/src/http/rest-relay.ts): `GET /v1/scripts/:id` on the gateway's port,
 * relayed to the scripts service's own port, beside the same request sent to that port directly (the baseline), in
 * the same run. Both are real processes as a deployment runs them: `bancada start --only gateway` and `--only
 * scripts`, over NATS, on one embedded PostgreSQL; the per-key rate limit is lifted (BANCADA_RATE_*), so the numbers
 * show the path, not the limiter. Every answer is checked; any error stops the run with a non-zero exit.
 * Env: NATS_URL (nats://127.0.0.1:4222), SCRIPTS (200), CALLS (4000 per path per round), IN_FLIGHT (32), ROUNDS (3),
 * PROFILE_DIR (each process writes a .cpuprofile there when it stops).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { ms, progress, rate, ratio, run, summarize, table, type Run } from "./lib/stats.js";

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SCRIPTS = env("SCRIPTS", 200);
const CALLS = env("CALLS", 4_000);
const IN_FLIGHT = env("IN_FLIGHT", 32);
const ROUNDS = env("ROUNDS", 3);
const bancada = path.join(import.meta.dirname, "../cli/bin/bancada.mjs");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once("error", reject);
  });
}

/** A `bancada start --only <component>` process, resolved with its output once `ready` shows in it. */
function start(component: string, childEnv: NodeJS.ProcessEnv, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const profile = process.env.PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.PROFILE_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, bancada, "start", "--only", component], {
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${component} not ready in 150 s:\n${out}`)), 150_000);
    const check = (chunk: Buffer) => {
      out += chunk.toString();
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
      }
    };
    child.stdout!.on("data", check);
    child.stderr!.on("data", check);
    child.once("exit", (code) => reject(new Error(`${component} exited with ${code}:\n${out}`)));
  });
}

/** CPU time a process has used so far, ms (Linux: utime + stime of /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const children: ChildProcess[] = [];
const dataDir = mkdtempSync(path.join(os.tmpdir(), "bancada-bench-relay-"));
async function stopAll(): Promise<void> {
  // the service first, then the gateway, which owns the embedded PostgreSQL
  for (const child of children.reverse()) {
    if (child.exitCode !== null) continue;
    await new Promise((resolve) => {
      child.once("exit", resolve);
      child.kill("SIGTERM");
    });
  }
  rmSync(dataDir, { recursive: true, force: true });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stopAll().finally(() => process.exit(130)));

try {
  const { DATABASE_URL: _db, ...inherited } = process.env;
  const servicePort = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...inherited,
    NATS_URL: process.env.NATS_URL ?? "nats://127.0.0.1:4222",
    BANCADA_DATA_DIR: dataDir,
    BANCADA_SUBJECT_ROOT: `bench_${randomBytes(4).toString("hex")}`,
    BANCADA_RATE_BURST: "1000000000",
    BANCADA_RATE_PER_SEC: "1000000000",
    LOG_LEVEL: "warn",
    PORT: "0",
    SCRIPTS_PORT: String(servicePort),
  };
  progress("starting the gateway and the scripts service as two processes");
  const gateway = await start(
    "gateway",
    { ...childEnv, LOG_LEVEL: "info" },
    /MCP endpoint: (\S+)[\s\S]*development API key \(every scope, writes allowed\): (bnc_\S+)[\s\S]*Press Ctrl-C to stop\./,
  );
  const relayBase = new URL(gateway.match[1]!).origin;
  const key = gateway.match[2]!;
  const scripts = await start("scripts", { ...childEnv, LOG_LEVEL: "info" }, /"msg":"REST API, health and metrics listening"/);
  const pids = { gateway: gateway.child.pid!, scripts: scripts.child.pid! };
  const serviceBase = `http://127.0.0.1:${servicePort}`;
  const headers = { authorization: `Bearer ${key}` };

  progress(`seeding ${SCRIPTS} scripts`);
  const ids: string[] = [];
  for (let i = 0; i < SCRIPTS; i++) {
    const created = await fetch(`${serviceBase}/v1/scripts`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ title: `Script ${i}`, text: "word ".repeat(200 + (i % 400)) }),
    });
    if (created.status !== 201) throw new Error(`seeding: ${created.status} ${await created.text()}`);
    ids.push(((await created.json()) as { script: { id: string } }).script.id);
  }

  const bases: Record<string, string> = { "service port (baseline)": serviceBase, "gateway relay": relayBase };
  const get = async (base: string, i: number) => {
    const id = ids[i % ids.length]!;
    const response = await fetch(`${base}/v1/scripts/${id}`, { headers });
    const body = (await response.json()) as { script?: { id: string } };
    if (response.status !== 200 || body.script?.id !== id)
      throw new Error(`GET ${base}/v1/scripts/${id}: ${response.status} ${JSON.stringify(body)}`);
  };
  const load = (base: string, calls: number, inFlight = IN_FLIGHT) => run(calls, inFlight, (i) => get(base, i));

  progress("warm-up");
  for (const base of Object.values(bases)) await load(base, 1_000);
  const results = new Map<string, Run[]>();
  // CPU of each process while a path ran: what the hop costs the gateway, beside what the service spends
  const cpu = new Map<string, { gateway: number; scripts: number }>();
  const names = Object.keys(bases);
  for (let round = 0; round < ROUNDS; round++) {
    // the paths take turns, in a rotating order, so a change in the machine's load falls on both
    for (const name of names.map((_, i) => names[(i + round) % names.length]!)) {
      const before = { gateway: cpuMsOf(pids.gateway), scripts: cpuMsOf(pids.scripts) };
      results.set(name, [...(results.get(name) ?? []), await load(bases[name]!, CALLS)]);
      const used = cpu.get(name) ?? { gateway: 0, scripts: 0 };
      cpu.set(name, {
        gateway: used.gateway + cpuMsOf(pids.gateway) - before.gateway,
        scripts: used.scripts + cpuMsOf(pids.scripts) - before.scripts,
      });
    }
    progress(`round ${round + 1}/${ROUNDS} done`);
  }
  // one at a time: the hop's own latency, without queueing behind 31 other requests
  const oneAtATime = new Map<string, Run>();
  for (const name of names) oneAtATime.set(name, await load(bases[name]!, 1_000, 1));

  const summaries = new Map([...results].map(([name, runs]) => [name, summarize(runs)]));
  const baseline = summaries.get(names[0]!)!;
  console.log(`\n## rest-relay — ${new Date().toISOString()}`);
  console.log(
    `node ${process.version}, ${os.cpus().length} cores, loadavg ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join("/")}; GET /v1/scripts/:id over ${SCRIPTS} scripts; ${IN_FLIGHT} in flight, ${ROUNDS} rounds of ${CALLS}; ` +
      "gateway and scripts service as separate processes over NATS, client in this process.\n",
  );
  const rows = [...summaries].map(([name, s]) => {
    const single = summarize([oneAtATime.get(name)!]);
    return [
      name,
      rate(s.calls),
      ms(s.p50),
      ms(s.p99),
      rate(s.perSecond),
      name === names[0] ? "" : ratio(s.perSecond / baseline.perSecond),
      ms(single.p50),
      name === names[0] ? "" : ms(single.p50 - summarize([oneAtATime.get(names[0]!)!]).p50),
      ms(cpu.get(name)!.gateway / s.calls),
      ms(cpu.get(name)!.scripts / s.calls),
    ];
  });
  console.log(
    table(
      [
        "path",
        "calls",
        "p50 ms",
        "p99 ms",
        "calls/s",
        "× baseline calls/s",
        "p50 ms, one at a time",
        "added p50 ms",
        "gateway CPU ms/call",
        "scripts CPU ms/call",
      ],
      rows,
    ),
  );
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await stopAll();
}
