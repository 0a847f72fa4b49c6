/**
 * What the one path costs (docs/boxes.md, "One path"): `exec true` in a box of node A entering replica A (its own
 * driver, in process) against the same call entering replica B (B runs the use case and asks A's node agent over
 * NATS: src/node/node-client.ts), interleaved in shuffled rounds so that load hits both alike (each path its own box
 * of node A); p50/p99, the added latency,
 * and throughput with 8 in flight; then the same over REST (`POST /v1/boxes/:id/exec` to replica A's HTTP API,
 * against B's). Both replicas run in this process, each with its own NATS connection, data folder, node name and
 * HTTP port, on one database. No gateway, so no per-key rate limit in the path (BANCADA_RATE_PER_SEC does not
 * apply); the hop from the gateway to the first replica and the key's resolution are the same in both cases and
 * are left out. Any error answer, or an exit code other than 0, fails the run.
 *   npx tsx services/boxes/bench/one-path.ts [iterations=200]
 * Needs root, bubblewrap, PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) and NATS
 * (NATS_URL, default nats://127.0.0.1:4222). No gateway: no rate limit applies.
 */
import { randomBytes } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { subjects as makeSubjects } from "@bancada/contracts";
import { BusKeys, connectNatsBus, createLogger, createServiceApp } from "@bancada/service-kit";
import { freshDatabase } from "@bancada/testkit";
import { createBoxesService, type BoxesService } from "../src/index.js";
import { benchPrincipal, loadAverage, stats, tableRow, timed } from "./bench-kit.js";

const iterations = Number(process.argv[2] ?? 200);
const natsUrl = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
const log = createLogger("bench", "silent");
const row = (cells: string[]) => tableRow(cells, 34);
const principal = benchPrincipal(["boxes:read", "boxes:write", "boxes:delete", "boxes:exec"]);

const database = await freshDatabase("bancada_bench");
const subjects = makeSubjects(`bench${randomBytes(4).toString("hex")}`);
// the boxes service's bus key, as every boxes process holds it: B derives A's node key from it to ask A's agent
const keys = BusKeys.generate().only(["boxes"]);
// one transfer key for both replicas, as a deployment may set BOXES_SIGNING_KEY
const signingKey = randomBytes(32).toString("hex");
const replicas: { service: BoxesService; dataDir: string; url: string; close: () => Promise<void> }[] = [];
for (const [index, node] of ["bench-node-a", "bench-node-b"].entries()) {
  const dataDir = await mkdtemp(path.join(tmpdir(), `bancada-boxes-bench-${node}-`));
  const bus = await connectNatsBus({ url: natsUrl, name: node, keys });
  const service = await createBoxesService({
    databaseUrl: database.url,
    bus,
    subjects,
    log,
    dataDir,
    node,
    sshPort: null,
    uidBase: 400_000 + index * 1_000,
    signingKey,
  });
  const app = createServiceApp({
    routes: [service.routes],
    resolver: { resolve: async () => principal },
    log,
    guards: { bindHost: "127.0.0.1", allowedHosts: [], allowedOrigins: [] },
  });
  const server: Server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    await new Promise((resolve) => server.close(resolve));
    await bus.close();
  };
  replicas.push({ service, dataDir, url, close });
}
const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
const via = (replica: typeof a) => async (tool: string, args: Record<string, unknown>) => {
  const reply = await replica.service.host.call(tool, args, principal);
  if (!reply.ok) throw new Error(`${tool}: ${reply.error.code} ${reply.error.message}`);
  return reply.result as Record<string, unknown>;
};
const local = via(a);
const throughAgent = via(b);
/** The REST mirror of exec on a replica's own HTTP API; any answer but 200 fails the run. */
const rest = (replica: typeof a) => async (_tool: string, args: Record<string, unknown>) => {
  const response = await fetch(`${replica.url}/v1/boxes/${String(args.boxId)}/exec`, {
    method: "POST",
    headers: { Authorization: "Bearer bench", "Content-Type": "application/json" },
    body: JSON.stringify({ cmd: args.cmd }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`REST exec via ${replica.url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
};
const restLocal = rest(a);
const restThroughAgent = rest(b);

try {
  // one box of node A per path: an exec readies its box's next way in behind it (the driver's warm entries), so two
  // paths on one box measured each other's refill — whichever came second in a round paid for it
  const paths = [local, throughAgent, restLocal, restThroughAgent];
  // four boxes at once: a paid plan (the free one runs three)
  await a.service.db.accountPlan.create({ data: { accountId: principal.accountId, plan: "pro" } });
  const boxOf = new Map<typeof local, string>();
  for (const [index, path] of paths.entries()) {
    const { box } = (await local("create_box", { name: `bench-one-path-${index}` })) as { box: { id: string; state: string } };
    if (box.state !== "running") throw new Error(`box ${box.id} is ${box.state}`);
    boxOf.set(path, box.id);
  }
  const exec = (call: typeof local) => async () => {
    const result = (await call("exec", { boxId: boxOf.get(call)!, cmd: "true" })) as { exitCode: number };
    if (result.exitCode !== 0) throw new Error(`exec true answered exit ${result.exitCode}`);
  };
  for (let i = 0; i < 10; i++) await Promise.all([exec(local)(), exec(throughAgent)(), exec(restLocal)(), exec(restThroughAgent)()]);

  const here: number[] = [];
  const there: number[] = [];
  const restHere: number[] = [];
  const restThere: number[] = [];
  const samples = new Map([
    [local, here],
    [throughAgent, there],
    [restLocal, restHere],
    [restThroughAgent, restThere],
  ]);
  for (let i = 0; i < iterations; i++) {
    // each round in a new order: no path always follows the same one
    for (const path of [...paths].sort(() => Math.random() - 0.5)) samples.get(path)!.push(await timed(exec(path)));
  }
  const throughput = async (call: typeof local) => {
    const total = Math.max(80, iterations);
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next++ < total) await exec(call)();
      }),
    );
    return total / ((performance.now() - started) / 1000);
  };
  const localRate = await throughput(local);
  const agentRate = await throughput(throughAgent);
  const restLocalRate = await throughput(restLocal);
  const restAgentRate = await throughput(restThroughAgent);

  const h = stats(here);
  const t = stats(there);
  const rh = stats(restHere);
  const rt = stats(restThere);
  console.log(`iterations ${iterations} (interleaved, shuffled; a box per path), load average ${loadAverage().join(" ")}`);
  console.log(row(["exec true in a box of node A", "p50 ms", "p99 ms", "calls/s (8)"]));
  console.log(row(["entering A (runs there)", h.p50.toFixed(2), h.p99.toFixed(2), localRate.toFixed(1)]));
  console.log(row(["entering B (A's agent over NATS)", t.p50.toFixed(2), t.p99.toFixed(2), agentRate.toFixed(1)]));
  console.log(row(["added by the agent RPC", (t.p50 - h.p50).toFixed(2), (t.p99 - h.p99).toFixed(2), ""]));
  console.log(row(["REST entering A (runs there)", rh.p50.toFixed(2), rh.p99.toFixed(2), restLocalRate.toFixed(1)]));
  console.log(row(["REST entering B (A's agent)", rt.p50.toFixed(2), rt.p99.toFixed(2), restAgentRate.toFixed(1)]));
  console.log(row(["added by the agent RPC", (rt.p50 - rh.p50).toFixed(2), (rt.p99 - rh.p99).toFixed(2), ""]));
} finally {
  for (const { service, dataDir, close } of replicas) {
    const boxes = await service.db.box.findMany({ where: { state: { not: "deleted" }, node: service.runtime.driver.node } });
    for (const box of boxes) await service.driver.destroy({ id: box.id, runtime: box.runtime }).catch(() => {});
    await service.stop();
    await close();
    await rm(dataDir, { recursive: true, force: true });
  }
  await database.drop();
}
