/**
 * What forwarding a box-bound call to its node costs: `exec true` in a box of node A entering replica A (runs
 * there) against the same call entering replica B (forwarded over NATS to A's node subject, answer relayed back),
 * interleaved in one run so that load hits both alike; p50/p99, the added latency, and throughput with 8 in
 * flight. Both replicas run in this process, each with its own NATS connection, data folder and node name, on one
 * database. The hop from the gateway to the first replica is the same in both cases and is left out.
 *   npx tsx services/boxes/bench/forward.ts [iterations=200]
 * Needs root, bubblewrap, PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres) and NATS
 * (NATS_URL, default nats://127.0.0.1:4222). No gateway: no rate limit applies.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { subjects as makeSubjects } from "@bancada/contracts";
import { BusKeys, connectNatsBus, createLogger } from "@bancada/service-kit";
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
// the keys of a gateway: B signs the calls it forwards, as a process holding the gateway's key does
const keys = BusKeys.generate();
const replicas: { service: BoxesService; dataDir: string; close: () => Promise<void> }[] = [];
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
  });
  replicas.push({ service, dataDir, close: () => bus.close() });
}
const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
const via = (replica: typeof a) => async (tool: string, args: Record<string, unknown>) => {
  const reply = await replica.service.host.call(tool, args, principal);
  if (!reply.ok) throw new Error(`${tool}: ${reply.error.code} ${reply.error.message}`);
  return reply.result as Record<string, unknown>;
};
const local = via(a);
const forwarded = via(b);

try {
  const { box } = (await local("create_box", { name: "bench-forward" })) as { box: { id: string; state: string } };
  if (box.state !== "running") throw new Error(`box ${box.id} is ${box.state}`);
  const exec = (call: typeof local) => async () => {
    const result = (await call("exec", { boxId: box.id, cmd: "true" })) as { exitCode: number };
    if (result.exitCode !== 0) throw new Error(`exec true answered exit ${result.exitCode}`);
  };
  for (let i = 0; i < 10; i++) await Promise.all([exec(local)(), exec(forwarded)()]);

  const here: number[] = [];
  const there: number[] = [];
  for (let i = 0; i < iterations; i++) {
    here.push(await timed(exec(local)));
    there.push(await timed(exec(forwarded)));
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
  const forwardedRate = await throughput(forwarded);

  const h = stats(here);
  const t = stats(there);
  console.log(`iterations ${iterations} (interleaved), load average ${loadAverage().join(" ")}`);
  console.log(row(["exec true in a box of node A", "p50 ms", "p99 ms", "calls/s (8)"]));
  console.log(row(["entering A (runs there)", h.p50.toFixed(2), h.p99.toFixed(2), localRate.toFixed(1)]));
  console.log(row(["entering B (forwarded to A)", t.p50.toFixed(2), t.p99.toFixed(2), forwardedRate.toFixed(1)]));
  console.log(row(["added by the forward", (t.p50 - h.p50).toFixed(2), (t.p99 - h.p99).toFixed(2), ""]));
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
