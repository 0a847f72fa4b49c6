/**
 * The rehearsal of a deployment (infra/local/cluster.mjs): a 3-node NATS cluster, two gateways, two scripts
 * replicas and the other services as separate processes. Clients write through both gateways while one scripts
 * replica, one gateway and one NATS node are killed with SIGKILL; nothing acknowledged may be lost, nothing
 * duplicated, and every failure must be one a client can retry.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect } from "@nats-io/transport-node";
import { errors } from "@nats-io/nats-core";
import { freshDatabase, type TestDatabase } from "@bancada/testkit";
import { Caller, call, listTagged, readCluster, runCluster, writeUnderLoad, type ClusterFile, type WriteLog } from "../local/load.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const retryable = new Set(["unavailable", "deadline_exceeded", "transport"]);

let dir: string;
let database: TestDatabase;
let cluster: ClusterFile;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "bancada-rehearsal-"));
  database = await freshDatabase("bancada_rehearsal");
  const env = { ...process.env, DATABASE_URL: database.url };
  await runCluster(["up", "--dir", dir, "--env", "BANCADA_RATE_PER_SEC=1000000", "--env", "BANCADA_RATE_BURST=1000000"], env, 100_000);
  cluster = readCluster(dir);
}, 110_000);

afterAll(async () => {
  if (dir)
    await runCluster(["down", "--dir", dir, "--grace", "10"], process.env, 30_000).catch((error: Error) => console.error(error.message));
  await database?.drop().catch(() => {});
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 40_000);

const pidOf = (component: string, n: number) => cluster.processes.find((p) => p.component === component && p.n === n)!.pid;

describe("the rehearsal cluster", () => {
  it("writes through both gateways lose nothing acknowledged and duplicate nothing while a scripts replica, a gateway and a NATS node are killed", async () => {
    expect(cluster.gateways).toHaveLength(2);
    expect(cluster.nats).toHaveLength(3);
    const tag = `rehearsal-${Date.now().toString(36)}`;
    const start = Date.now();
    let stopping = false;
    const kills: { what: string; at: number }[] = [];
    const log: WriteLog = { acknowledged: new Map(), attempts: [], abandoned: [] };
    const writing = writeUnderLoad({ gateways: cluster.gateways, apiKey: cluster.apiKey, workers: 4, tag, stop: () => stopping, log });
    // Fresh short calls, apart from the writers: a writer whose reply was lost with a killed node waits for its
    // deadline, so "calls succeed again" is measured by calls started after each kill, never blocked behind one.
    const probes: { at: number; ms: number; ok: boolean }[] = [];
    const probing = Promise.all(
      [0, 1, 2, 3].map(async (index) => {
        const prober = new Caller(cluster.gateways, cluster.apiKey, index);
        try {
          while (!stopping) {
            const at = Date.now();
            const outcome = await prober.call("list_scripts", { limit: 1 }, 3_000);
            probes.push({ at, ms: Date.now() - at, ok: outcome.kind === "ok" });
            await sleep(100);
          }
        } finally {
          await prober.close();
        }
      }),
    );
    const kill = (what: string, pid: number) => {
      process.kill(pid, "SIGKILL");
      kills.push({ what, at: Date.now() });
    };
    await sleep(3_000);
    kill("scripts-1", pidOf("scripts", 1));
    await sleep(1_000);
    kill("gateway-1", pidOf("gateway", 1));
    await sleep(1_000);
    kill("nats-3", cluster.nats[2]!.pid);
    await sleep(7_000);
    stopping = true;
    await Promise.all([writing, probing]);

    const failures = log.attempts.filter((attempt) => attempt.outcome !== "ok");
    const byCode: Record<string, number> = {};
    for (const failure of failures) byCode[failure.code ?? "?"] = (byCode[failure.code ?? "?"] ?? 0) + 1;
    // for each kill, how long until a call that started after it succeeded
    const recovery = kills.map(({ what, at }) => {
      const ends = probes.filter((probe) => probe.ok && probe.at >= at).map((probe) => probe.at + probe.ms - at);
      return { what, ms: ends.length ? Math.min(...ends) : Infinity };
    });
    console.log(
      `rehearsal: ${log.acknowledged.size} acknowledged creates, ${log.attempts.length} attempts, ` +
        `failures ${JSON.stringify(byCode)}, ` +
        `first success after each kill ${JSON.stringify(recovery)}, writing took ${Date.now() - start} ms`,
    );
    expect(log.acknowledged.size).toBeGreaterThan(50);
    expect(log.abandoned).toEqual([]);
    // every failure is one a client retries: the service or NATS not answering, or the killed gateway's connection
    for (const failure of failures) expect(retryable.has(failure.code ?? ""), `${failure.code}: ${failure.message}`).toBe(true);
    // and nothing failed before the first kill
    for (const failure of failures) expect(failure.at + failure.ms).toBeGreaterThanOrEqual(kills[0]!.at);
    for (const failure of failures.filter((f) => f.code === "transport")) expect(failure.gateway).toBe(cluster.gateways[0]);
    for (const { what, ms } of recovery) expect(ms, `first success after killing ${what}`).toBeLessThan(5_000);

    // every acknowledged create is there, once per key
    const reader = new Caller([cluster.gateways[1]!], cluster.apiKey, 0);
    try {
      const listed = await listTagged(await reader.client(), tag);
      const perKey = new Map<string, number>();
      for (const item of listed) {
        const key = item.title.slice(tag.length + 1);
        perKey.set(key, (perKey.get(key) ?? 0) + 1);
      }
      const duplicates = [...perKey].filter(([, count]) => count > 1);
      expect(duplicates).toEqual([]);
      const missing = [...log.acknowledged.keys()].filter((key) => !perKey.has(key));
      expect(missing).toEqual([]);
      expect(perKey.size).toBe(log.acknowledged.size);
      const ids = [...log.acknowledged.values()];
      const unreadable: string[] = [];
      const client = await reader.client();
      for (let i = 0; i < ids.length; i += 16) {
        const outcomes = await Promise.all(ids.slice(i, i + 16).map((id) => call(client, "get_script", { id })));
        outcomes.forEach((outcome, j) => outcome.kind !== "ok" && unreadable.push(`${ids[i + j]}: ${JSON.stringify(outcome)}`));
      }
      expect(unreadable).toEqual([]);
    } finally {
      await reader.close();
    }
  }, 90_000);

  it("refuses the scripts service's NATS user a publish to the boards service's calls", async (context) => {
    if (!cluster.auth)
      return context.skip("the command does not read NATS_USER yet: infra/test/nats-permissions.test.ts checks the rendered users");
    const scripts = cluster.processes.find((p) => p.component === "scripts" && p.n === 2)!;
    const connection = await connect({ servers: cluster.nats[0]!.url, user: scripts.env.NATS_USER, pass: scripts.env.NATS_PASSWORD });
    try {
      const violation = (async () => {
        for await (const status of connection.status()) {
          if (status.type === "error" && status.error instanceof errors.PermissionViolationError) return status.error;
        }
        return undefined;
      })();
      connection.publish(`${cluster.root}.boards.call`, new TextEncoder().encode("{}"));
      await connection.flush();
      const error = await Promise.race([violation, sleep(5_000).then(() => undefined)]);
      expect(error?.operation).toBe("publish");
      expect(error?.subject).toBe(`${cluster.root}.boards.call`);
    } finally {
      await connection.close();
    }
  });
});
