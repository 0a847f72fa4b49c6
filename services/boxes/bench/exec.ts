/**
 * exec of `true` in a running local box against a bare `bash -lc true` on the host, in the same run,
 * interleaved (so machine load hits both alike): p50/p99 and their ratio, at the driver and through the
 * service's tool host (validation, Postgres, no gateway); then exec throughput with 8 calls in flight,
 * and create_box → running time. The baseline runs the dotfiles the box's runs: the host's /etc/profile (the
 * box's /etc/profile is the same file) and a home seeded from /etc/skel, as a box's home is; the row with an
 * empty home shows what those dotfiles cost. "no warm entry" is the same box through a second driver whose
 * commands join the box's cgroups as they start (the way before warm entries, docs/boxes.md).
 *   npx tsx services/boxes/bench/exec.ts [iterations=100]
 * Needs root, bubblewrap and PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { spawn } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { subjects } from "@bancada/contracts";
import { MemoryBus, createLogger } from "@bancada/service-kit";
import { freshDatabase } from "@bancada/testkit";
import { createBoxesService } from "../src/index.js";
import { createLocalDriver } from "../src/driver/local/local-driver.js";
import { benchPrincipal, loadAverage, stats, tableRow, timed } from "./bench-kit.js";

const iterations = Number(process.argv[2] ?? 100);
const pauseMs = 50;
const log = createLogger("bench", "silent");
const row = (cells: string[]) => tableRow(cells, 36);
const principal = benchPrincipal(["boxes:read", "boxes:write", "boxes:delete", "boxes:exec"]);

const dataDir = await mkdtemp(path.join(tmpdir(), "bancada-boxes-bench-"));
const home = await mkdtemp(path.join(tmpdir(), "bancada-bench-home-"));
const emptyHome = await mkdtemp(path.join(tmpdir(), "bancada-bench-empty-"));
await cp("/etc/skel", home, { recursive: true }).catch(() => {});
const database = await freshDatabase("bancada_bench");
const bus = new MemoryBus();
const service = await createBoxesService({ databaseUrl: database.url, bus, subjects: subjects("bench"), log, dataDir });
const call = async (tool: string, args: Record<string, unknown>) => {
  const reply = await service.host.call(tool, args, principal);
  if (!reply.ok) throw new Error(`${tool}: ${reply.error.message}`);
  return reply.result as Record<string, unknown>;
};

try {
  const creates: number[] = [];
  let boxId = "";
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const { box } = (await call("create_box", { name: `bench-${i}` })) as { box: { id: string; state: string } };
    creates.push(performance.now() - started);
    if (box.state !== "running") throw new Error(`box ${box.id} is ${box.state}`);
    if (i === 0) boxId = box.id;
    else await call("delete_box", { boxId: box.id, confirm: true });
  }
  const stored = await service.db.box.findUniqueOrThrow({ where: { id: boxId } });
  const handle = { id: stored.id, runtime: stored.runtime };
  // The same box through a second driver without warm entries: every command joins the box's cgroups as it starts.
  const cold = await createLocalDriver({ dataDir, log, warm: false });
  const execRequest = { command: { cmd: "true" }, cwd: "/data/home", env: {}, timeoutMs: 60_000, maxOutputBytes: 1024 };

  const host: number[] = [];
  const hostEmpty: number[] = [];
  const bareProcess: number[] = [];
  const driver: number[] = [];
  const coldDriver: number[] = [];
  const tool: number[] = [];
  for (let i = 0; i < iterations; i++) {
    host.push(await paused(() => hostBash(home)));
    hostEmpty.push(await paused(() => hostBash(emptyHome)));
    bareProcess.push(await paused(() => hostProcess("/bin/true", [])));
    coldDriver.push(await paused(() => cold.exec(handle, execRequest)));
    driver.push(await paused(() => service.driver.exec(handle, execRequest)));
    tool.push(await paused(() => call("exec", { boxId, cmd: "true" })));
  }
  // Throughput in rounds, interleaved like the latencies: each way gets the same stretches of machine load.
  const inFlight = 8;
  const rounds = 4;
  const perRound = Math.max(10, Math.round(iterations / rounds));
  const ways = {
    cold: () => cold.exec(handle, execRequest),
    driver: () => service.driver.exec(handle, execRequest),
    tool: () => call("exec", { boxId, cmd: "true" }),
  };
  const busyMs = { cold: 0, driver: 0, tool: 0 };
  for (let round = 0; round < rounds; round++) {
    for (const way of Object.keys(ways) as (keyof typeof ways)[]) {
      let next = 0;
      busyMs[way] += await timed(() =>
        Promise.all(
          Array.from({ length: inFlight }, async () => {
            while (next++ < perRound) await ways[way]();
          }),
        ),
      );
    }
  }
  const perSecond = {
    cold: (rounds * perRound) / (busyMs.cold / 1000),
    driver: (rounds * perRound) / (busyMs.driver / 1000),
    tool: (rounds * perRound) / (busyMs.tool / 1000),
  };
  await cold.close();

  const hostStats = stats(host);
  console.log(`iterations ${iterations} (interleaved, ${pauseMs} ms after each call), load average ${loadAverage().join(" ")}`);
  console.log(row(["", "p50 ms", "p99 ms", "ratio p50", "ratio p99"]));
  console.log(row(["host bash -lc true (box's dotfiles)", hostStats.p50.toFixed(1), hostStats.p99.toFixed(1), "1.00", "1.00"]));
  for (const [label, samples] of [
    ["host bash -lc true (empty home)", hostEmpty],
    ["host /bin/true (1 process)", bareProcess],
    ["box exec (driver, no warm entry)", coldDriver],
    ["box exec (driver)", driver],
    ["box exec (tool host)", tool],
  ] as const) {
    const s = stats(samples);
    console.log(row([label, s.p50.toFixed(1), s.p99.toFixed(1), (s.p50 / hostStats.p50).toFixed(2), (s.p99 / hostStats.p99).toFixed(2)]));
  }
  console.log(
    `exec throughput, ${inFlight} in flight, calls/s: driver without warm entries ${perSecond.cold.toFixed(1)}, ` +
      `driver ${perSecond.driver.toFixed(1)}, tool host ${perSecond.tool.toFixed(1)}`,
  );
  const createStats = stats(creates);
  console.log(
    `create_box → running (tool host, wait: true): p50 ${createStats.p50.toFixed(1)} ms, max ${Math.max(...creates).toFixed(1)} ms (n=5)`,
  );
} finally {
  const boxes = await service.db.box.findMany({ where: { state: { not: "deleted" } } });
  for (const box of boxes) await service.driver.destroy({ id: box.id, runtime: box.runtime }).catch(() => {});
  await service.stop();
  await bus.close();
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
  await rm(emptyHome, { recursive: true, force: true });
}

/**
 * Timed, then a pause (every row alike): what a call leaves to do in the background (a box's next warm entry being
 * started) lands in no other call's time, as with an agent that thinks between calls. The throughput row has no pause.
 */
async function paused(work: () => Promise<unknown>): Promise<number> {
  const took = await timed(work);
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
  return took;
}

function hostBash(homeDir: string): Promise<void> {
  return hostProcess("/bin/bash", ["-lc", "true"], homeDir);
}

function hostProcess(file: string, args: string[], homeDir = "/nonexistent"): Promise<void> {
  // The same clean environment a box command gets: no inherited variables.
  const env = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", HOME: homeDir, LANG: "C.UTF-8" };
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    child.on("error", reject);
    child.on("close", () => resolve());
  });
}
