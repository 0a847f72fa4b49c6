/**
 * The rehearsal of a deployment (infra/local/cluster.mjs): a 3-node NATS cluster with TLS on client connections
 * and routes, two gateways and two replicas of every service, each a separate process. Clients load scripts,
 * boards, drafts and docs through both gateways (infra/local/workloads.ts) while one replica of each of those
 * services, one gateway and one NATS node are killed with SIGKILL. Counted in PostgreSQL: nothing acknowledged
 * is lost, nothing is written twice, every acknowledged draft submission is submitted exactly once; every
 * failure is one a client can retry, and each service answers again within 3 s of its kill.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect } from "@nats-io/transport-node";
import { errors } from "@nats-io/nats-core";
import { freshDatabase, type TestDatabase } from "@bancada/testkit";
import { Caller, readCluster, runCluster, type ClusterFile } from "../local/load.js";
import { emptyLog, loadService, loadedServices, makeTargets, probes, type ServiceLog, type ServiceName } from "../local/workloads.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const retryable = new Set(["unavailable", "deadline_exceeded", "transport"]);

let dir: string;
let database: TestDatabase;
let cluster: ClusterFile;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "bancada-rehearsal-"));
  database = await freshDatabase("bancada_rehearsal");
  const env = { ...process.env, DATABASE_URL: database.url };
  const lifted = ["BANCADA_RATE_PER_SEC=1000000", "BANCADA_RATE_BURST=1000000", "DOCS_DEMO_CORPUS=1"].flatMap((pair) => ["--env", pair]);
  await runCluster(["up", "--dir", dir, "--ready-timeout", "240", ...lifted], env, 280_000);
  cluster = readCluster(dir);
}, 290_000);

afterAll(async () => {
  if (dir)
    await runCluster(["down", "--dir", dir, "--grace", "10"], process.env, 30_000).catch((error: Error) => console.error(error.message));
  await database?.drop().catch(() => {});
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 40_000);

const pidOf = (component: string, n: number) => cluster.processes.find((p) => p.component === component && p.n === n)!.pid;

/** Rows per unit key: the key is the last word of a title or caption (`<tag> <key>`). */
function perKey(texts: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts) {
    const key = text.slice(text.lastIndexOf(" ") + 1);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

interface Tally {
  acknowledged: number;
  lost: string[];
  duplicated: string[];
  stray: string[];
}

/** Acknowledged keys against the rows found: lost (acknowledged, not there), duplicated (there twice), stray (there, never acknowledged). */
function tally(log: ServiceLog, rows: Map<string, number>): Tally {
  return {
    acknowledged: log.acknowledged.size,
    lost: [...log.acknowledged.keys()].filter((key) => !rows.has(key)),
    duplicated: [...rows].filter(([, count]) => count > 1).map(([key]) => key),
    stray: [...rows.keys()].filter((key) => !log.acknowledged.has(key)),
  };
}

describe("the rehearsal cluster", () => {
  it("loses nothing acknowledged, writes nothing twice and submits every draft once while a replica of each service, a gateway and a NATS node are killed", async () => {
    expect(cluster.gateways).toHaveLength(2);
    expect(cluster.nats).toHaveLength(3);
    for (const service of loadedServices)
      expect(
        cluster.processes.filter((p) => p.component === service),
        service,
      ).toHaveLength(2);
    // TLS on: the components were given tls:// URLs and the CA, and every client connection of every node is TLS
    expect(cluster.tls?.caFile).toBeTruthy();
    for (const node of cluster.nats) {
      expect(node.url).toMatch(/^tls:\/\//);
      const connz = (await (await fetch(`${node.monitor}/connz`)).json()) as { connections: { tls_version?: string; name?: string }[] };
      for (const connection of connz.connections) expect(connection.tls_version, `${connection.name} on ${node.url}`).toMatch(/^1\.[23]$/);
    }

    const targets = await makeTargets(cluster.gateways[0]!, cluster.apiKey, `rehearsal-${Date.now().toString(36)}`);
    let stopping = false;
    const logs = Object.fromEntries(loadedServices.map((service) => [service, emptyLog()])) as Record<ServiceName, ServiceLog>;
    const workers: Record<ServiceName, number> = { scripts: 3, boards: 2, drafts: 2, docs: 1 };
    const loading = loadedServices.map((service) =>
      loadService({
        service,
        gateways: cluster.gateways,
        apiKey: cluster.apiKey,
        workers: workers[service],
        targets,
        stop: () => stopping,
        log: logs[service],
      }),
    );
    // Fresh short reads of each service, one started every 200 ms whatever the earlier ones are doing: a call whose
    // reply died with a killed process waits, so "answers again" is measured by calls started after each kill.
    const answered: { service: ServiceName; at: number; ms: number; ok: boolean }[] = [];
    const probing = loadedServices.map(async (service) => {
      const callers = [0, 1].map((index) => new Caller(cluster.gateways, cluster.apiKey, index));
      const pending: Promise<unknown>[] = [];
      try {
        for (let n = 0; !stopping; n++) {
          const { tool, args } = probes[service](targets);
          const at = Date.now();
          pending.push(
            callers[n % 2]!.call(tool, args, 3_000).then((outcome) =>
              answered.push({ service, at, ms: Date.now() - at, ok: outcome.kind === "ok" }),
            ),
          );
          await sleep(200);
        }
        await Promise.all(pending);
      } finally {
        await Promise.all(callers.map((caller) => caller.close()));
      }
    });
    const kills: { what: string; service?: ServiceName; at: number }[] = [];
    const kill = (what: string, pid: number, service?: ServiceName) => {
      process.kill(pid, "SIGKILL");
      kills.push({ what, at: Date.now(), ...(service ? { service } : {}) });
    };
    await sleep(3_000);
    // boards-1 holds the embedded PostgreSQL when the rehearsal runs without DATABASE_URL: its second replica goes
    kill("scripts-1", pidOf("scripts", 1), "scripts");
    await sleep(1_000);
    kill("boards-2", pidOf("boards", 2), "boards");
    await sleep(1_000);
    kill("drafts-1", pidOf("drafts", 1), "drafts");
    await sleep(1_000);
    kill("docs-1", pidOf("docs", 1), "docs");
    await sleep(1_000);
    kill("gateway-1", pidOf("gateway", 1));
    await sleep(1_000);
    kill("nats-3", cluster.nats[2]!.pid);
    await sleep(7_000);
    stopping = true;
    await Promise.all([...loading, ...probing]);

    // for each kill, how long until a call started after it succeeded: of that service, or of every service
    const recovery = kills.map(({ what, service, at }) => {
      const firstOf = (of: ServiceName) => {
        const ends = answered
          .filter((probe) => probe.service === of && probe.ok && probe.at >= at)
          .map((probe) => probe.at + probe.ms - at);
        return ends.length ? Math.min(...ends) : Infinity;
      };
      return { what, ms: service ? firstOf(service) : Math.max(...loadedServices.map(firstOf)) };
    });

    const sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    try {
      // the submissions accepted are finished by the workers: wait until none is left submitting
      for (let waited = 0; ; waited += 500) {
        const left = await sql.query("SELECT count(*)::int AS n FROM drafts.drafts WHERE workspace_id = $1 AND state = 'submitting'", [
          targets.workspaceId,
        ]);
        if (left.rows[0].n === 0) break;
        if (waited > 60_000) throw new Error(`${left.rows[0].n} drafts still submitting after 60 s`);
        await sleep(500);
      }
      const texts = async (query: string, value: string) => (await sql.query(query, [value])).rows.map((row: { text: string }) => row.text);
      const tallies: Record<ServiceName, Tally> = {
        scripts: tally(
          logs.scripts,
          perKey(await texts("SELECT title AS text FROM scripts.scripts WHERE title LIKE $1 || ' %'", targets.tag)),
        ),
        boards: tally(logs.boards, perKey(await texts("SELECT title AS text FROM boards.tasks WHERE board_id = $1", targets.boardId))),
        drafts: tally(
          logs.drafts,
          perKey(await texts("SELECT caption AS text FROM drafts.drafts WHERE workspace_id = $1", targets.workspaceId)),
        ),
        // a read writes nothing: lost is what never answered
        docs: { acknowledged: logs.docs.acknowledged.size, lost: logs.docs.abandoned, duplicated: [], stray: [] },
      };
      // exactly once: each acknowledged draft submitted, with one job and one submitted event
      const submissions = await sql.query(
        `SELECT d.id, d.state,
                (SELECT count(*)::int FROM drafts.submission_jobs j WHERE j.draft_id = d.id) AS jobs,
                (SELECT count(*)::int FROM drafts.events e WHERE e.draft_id = d.id AND e.type = 'draft.submitted') AS events
           FROM drafts.drafts d WHERE d.workspace_id = $1`,
        [targets.workspaceId],
      );
      const notOnce = submissions.rows.filter(
        (row: { state: string; jobs: number; events: number }) => row.state !== "submitted" || row.jobs !== 1 || row.events !== 1,
      );

      const report = loadedServices.map((service) => {
        const t = tallies[service];
        const failures = logs[service].attempts.filter((attempt) => attempt.outcome !== "ok");
        return `${service}: ${t.acknowledged} acknowledged, ${t.lost.length} lost, ${t.duplicated.length} duplicated, ${failures.length} retried attempts`;
      });
      console.log(
        `rehearsal (TLS): ${report.join("; ")}; drafts submitted exactly once ${submissions.rows.length - notOnce.length}/${submissions.rows.length}; ` +
          `first success after each kill ${JSON.stringify(recovery)}`,
      );

      for (const service of loadedServices) {
        const t = tallies[service];
        expect(t.acknowledged, `${service} acknowledged`).toBeGreaterThan(5);
        expect(logs[service].abandoned, `${service} abandoned`).toEqual([]);
        expect(t.lost, `${service} lost`).toEqual([]);
        expect(t.duplicated, `${service} duplicated`).toEqual([]);
        expect(t.stray, `${service} written but never acknowledged`).toEqual([]);
        const failures = logs[service].attempts.filter((attempt) => attempt.outcome !== "ok");
        // every failure is one a client retries, nothing failed before the first kill, and a dropped connection was the killed gateway's
        for (const failure of failures)
          expect(retryable.has(failure.code ?? ""), `${service} ${failure.tool} ${failure.code}: ${failure.message}`).toBe(true);
        for (const failure of failures) expect(failure.at + failure.ms).toBeGreaterThanOrEqual(kills[0]!.at);
        for (const failure of failures.filter((f) => f.code === "transport")) expect(failure.gateway).toBe(cluster.gateways[0]);
      }
      expect(notOnce).toEqual([]);
      expect(submissions.rows.length).toBe(logs.drafts.acknowledged.size);
      for (const { what, ms } of recovery) expect(ms, `first success after killing ${what}`).toBeLessThanOrEqual(3_000);
    } finally {
      await sql.end();
    }
  }, 240_000);

  it("refuses the scripts service's NATS user a publish to the boards service's calls, and a connection without TLS", async (context) => {
    if (!cluster.auth)
      return context.skip("the command does not read NATS_USER yet: infra/test/nats-permissions.test.ts checks the rendered users");
    const scripts = cluster.processes.find((p) => p.component === "scripts" && p.n === 2)!;
    const credentials = { user: scripts.env.NATS_USER, pass: scripts.env.NATS_PASSWORD };
    const plaintext = connect({
      servers: cluster.nats[0]!.url.replace(/^tls:/, "nats:"),
      ...credentials,
      tls: null,
      maxReconnectAttempts: 0,
    });
    await expect(plaintext).rejects.toThrow();
    const connection = await connect({ servers: cluster.nats[0]!.url, ...credentials, tls: { caFile: cluster.tls!.caFile } });
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
