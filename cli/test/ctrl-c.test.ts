/**
 * Ctrl-C in a terminal: the terminal sends SIGINT to the whole foreground process group. The embedded
 * PostgreSQL must not be part of it: the calls in flight are answered, their audit rows written, and only then
 * is the server stopped, by `bancada` itself, which exits 0.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { embeddedServerAnswers } from "@bancada/embedded-db";
import { callTool, connectClient } from "@bancada/testkit";
import { bin } from "./start-bancada.js";

const repoRoot = path.join(import.meta.dirname, "../..");

interface Outcome {
  tool: string;
  sentAt: number;
  /** The envelope's code for an error result, "ok" for a result, or "transport: <message>" when no answer came. */
  answer: string;
}

describe("Ctrl-C of bancada start (SIGINT to the whole process group)", { timeout: 300_000 }, () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let boxId: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "bancada-ctrl-c-"));
    // as root, PostgreSQL runs as the postgres user, which must pass through this folder
    await chmod(dir, 0o711);
    const { DATABASE_URL: _db, NATS_URL: _nats, ...rest } = process.env;
    // the per-key rate limit is not what this test is about
    env = {
      ...rest,
      BANCADA_DATA_DIR: path.join(dir, "data"),
      PORT: "0",
      LOG_LEVEL: "warn",
      BANCADA_RATE_PER_SEC: "100000",
      BANCADA_RATE_BURST: "100000",
      // the box's 20 GiB disk is admitted whatever the test machine's free space (host admission has its own tests)
      BOXES_DISK_OVERCOMMIT: "1000",
    };
  });
  afterAll(async () => {
    // never leave a server behind, whatever the test did
    const pid = await postmasterPid(path.join(dir, "data", "pg"));
    if (pid) process.kill(pid, "SIGQUIT");
    await rm(dir, { recursive: true, force: true });
  });

  it("when the group gets SIGINT with calls in flight, then every call sent before it is answered, audited, and the exit is 0 and quick", async () => {
    const first = await launch(env);
    const clients: Client[] = [];
    for (let i = 0; i < 4; i++) clients.push(await connectClient(first.url, first.key));
    const { box } = await ok<{ box: { id: string } }>(clients[0]!, "create_box", { name: "ctrl-c" });
    boxId = box.id;
    const { job } = await ok<{ job: { id: string } }>(clients[0]!, "start_job", { boxId: box.id, cmd: "sleep 300" });

    const outcomes: Outcome[] = [];
    let signalledAt = Number.POSITIVE_INFINITY;
    const call = async (client: Client, tool: string, args: Record<string, unknown>) => {
      const sentAt = Date.now();
      const answer = await callTool(client, tool, args, { timeoutMs: 60_000 }).then(
        (outcome) => (outcome.isError ? (outcome.data as { error: { code: string } }).error.code : "ok"),
        (error: Error) => `transport: ${error.message}`,
      );
      outcomes.push({ tool, sentAt, answer });
      return answer;
    };
    // three clients keep writing; the fourth waits on the job (4 s), so a long call is in flight at the signal
    const writers = clients.slice(0, 3).map(async (client, n) => {
      for (let i = 0; Date.now() < signalledAt + 5_000; i++) {
        const answer = await call(client, "create_script", { title: `ctrl-c ${n}-${i}`, text: "x" });
        if (answer.startsWith("transport:")) break;
        // paced, so the answered writes stay within one audit page (500) below however fast the machine is
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
    });
    const waiter = call(clients[3]!, "job_wait", { boxId: box.id, jobId: job.id, timeoutSeconds: 4 });
    while (outcomes.filter((o) => o.answer === "ok").length < 20) await new Promise((resolve) => setTimeout(resolve, 50));

    signalledAt = Date.now();
    process.kill(-first.child.pid!, "SIGINT");
    const code = await first.exited;
    const exitMs = Date.now() - signalledAt;
    await Promise.all([...writers, waiter]);
    await Promise.all(clients.map((client) => client.close().catch(() => {})));

    const sentBefore = outcomes.filter((o) => o.sentAt < signalledAt);
    expect(sentBefore.filter((o) => o.answer !== "ok")).toEqual([]);
    expect(outcomes.find((o) => o.tool === "job_wait")?.answer).toBe("ok");
    expect(outcomes.filter((o) => !o.answer.startsWith("transport:") && o.answer !== "ok")).toEqual([]);
    expect(first.output()).not.toMatch(/Can't reach database server|audit records could not be written/);
    expect(code).toBe(0);
    // the job_wait (4 s) is drained, the rest is quick; a loaded machine is slow, so the margin is wide
    expect(exitMs).toBeLessThan(15_000);
    expect(await embeddedServerAnswers(env.BANCADA_DATA_DIR!)).toBe(false);
    expect(await postgresProcessesOf(path.join(env.BANCADA_DATA_DIR!, "pg"))).toEqual([]);

    // every answered write has its audit row
    const audited = JSON.parse(await bancada(env, "audit", "--tool", "create_script", "--limit", "500", "--json")) as unknown[];
    expect(audited).toHaveLength(outcomes.filter((o) => o.tool === "create_script" && o.answer === "ok").length);
  });

  it("when `pnpm start` gets Ctrl-C with a box running and an exec answered during the drain, then pnpm prints no ELIFECYCLE, exits 0, and the stop does not wait out the keep-alive", async () => {
    // pnpm passes the terminal's SIGINT on to its child as well: one Ctrl-C reaches bancada twice
    const started = await launch(env, "pnpm");
    const client = await connectClient(started.url, started.key);
    const exec = ok<{ exitCode: number }>(client, "exec", { boxId: await runningBox(client), cmd: "sleep 2", timeoutSeconds: 60 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.kill(-started.child.pid!, "SIGINT");
    expect((await exec).exitCode).toBe(0);
    const answeredAt = Date.now();
    const code = await started.exited;
    // the exec's connection, idle once answered, held the stop for Node's keep-alive timeout (5 s) before
    expect(Date.now() - answeredAt).toBeLessThan(3_500);
    expect(code).toBe(0);
    expect(started.output()).not.toContain("ELIFECYCLE");
    await client.close().catch(() => {});
  });

  it("when the group gets SIGINT with an exec running past the drain, then the exec is cancelled at the drain's end (10 s) and the exit is still 0", async () => {
    const started = await launch(env);
    const client = await connectClient(started.url, started.key);
    const exec = callTool(
      client,
      "exec",
      { boxId: await runningBox(client), cmd: "sleep 300", timeoutSeconds: 600 },
      { timeoutMs: 60_000 },
    ).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const signalledAt = Date.now();
    process.kill(-started.child.pid!, "SIGINT");
    const code = await started.exited;
    // the in-process bus waited for the exec to end, until the 15 s guard exited 1
    expect(code).toBe(0);
    expect(Date.now() - signalledAt).toBeLessThan(14_000);
    await exec;
    await client.close().catch(() => {});
  });

  it("when bancada is killed (-9), then the next start uses the server it left running, and stops it at its own exit", async () => {
    const first = await launch(env);
    first.child.kill("SIGKILL");
    await first.exited;
    // the server lives on in its own session, so nothing the data folder needs is lost
    expect(await embeddedServerAnswers(env.BANCADA_DATA_DIR!)).toBe(true);
    const second = await launch(env);
    const client = await connectClient(second.url, second.key);
    await ok(client, "list_scripts", {});
    // the first test's box (its job still runs) is deleted, so nothing of it outlives the test
    if (boxId) await ok(client, "delete_box", { boxId, confirm: true });
    await client.close();
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    expect(await embeddedServerAnswers(env.BANCADA_DATA_DIR!)).toBe(false);
    expect(await postgresProcessesOf(path.join(env.BANCADA_DATA_DIR!, "pg"))).toEqual([]);
  });
});

/** The first test's box (one box per workspace is what the machine's share allows): running, or woken by the call. */
async function runningBox(client: Client): Promise<string> {
  const { boxes } = await ok<{ boxes: { id: string }[] }>(client, "list_boxes", {});
  return boxes[0]!.id;
}

async function ok<T>(client: Client, tool: string, args: Record<string, unknown>): Promise<T> {
  const outcome = await callTool<T>(client, tool, args, { timeoutMs: 150_000 });
  if (outcome.isError) throw new Error(`${tool}: ${outcome.text}`);
  return outcome.data;
}

/**
 * `bancada start` (or `pnpm start`, as the README says) in its own process group, as a terminal runs a command:
 * the group is what Ctrl-C signals.
 */
async function launch(
  env: NodeJS.ProcessEnv,
  via: "bin" | "pnpm" = "bin",
): Promise<{ child: ChildProcess; url: string; key: string; output: () => string; exited: Promise<number | null> }> {
  const [command, args] = via === "pnpm" ? ["pnpm", ["start"]] : [process.execPath, [bin, "start"]];
  const child = spawn(command, args, { env, cwd: repoRoot, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  // the whole group: `pnpm start`'s own child (the node process) outlived a kill of pnpm alone when a test failed
  const orphanGuard = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  };
  process.once("exit", orphanGuard);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      process.removeListener("exit", orphanGuard);
      resolve(code);
    }),
  );
  let out = "";
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready: ${out}`)), 200_000);
    void exited.then(() => reject(new Error(`exited: ${out}`)));
    child.stdout!.on("data", () => {
      if (out.includes("Press Ctrl-C to stop.")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  const url = /MCP endpoint: (\S+)/.exec(out)![1]!;
  const key = (JSON.parse(await readFile(path.join(env.BANCADA_DATA_DIR!, "dev-key.json"), "utf8")) as { key: string }).key;
  return { child, url, key, output: () => out, exited };
}

function bancada(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.once("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`bancada ${args.join(" ")}: ${code}\n${err}`))));
  });
}

/** The server's process id from its lock file, when that process still runs. */
async function postmasterPid(clusterDir: string): Promise<number | undefined> {
  const pid = Number((await readFile(path.join(clusterDir, "postmaster.pid"), "utf8").catch(() => "")).split("\n")[0]);
  if (!(pid > 0)) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/** The PostgreSQL processes serving `clusterDir`: its postmaster (lock file) and any process whose command line names the folder. */
async function postgresProcessesOf(clusterDir: string): Promise<string[]> {
  const found = spawnSync("pgrep", ["-a", "-f", clusterDir], { encoding: "utf8" }).stdout;
  const pid = await postmasterPid(clusterDir);
  return [...found.split("\n").filter((line) => line.includes("postgres")), ...(pid ? [`postmaster ${pid}`] : [])];
}
