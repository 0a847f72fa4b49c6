/**
 * create_box → first command answered: the time from create_box (through the service's tool host: validation,
 * PostgreSQL, the driver) until an exec of `true` in the new box has answered, with the warm pool (driver/local/disk-pool.ts:
 * boxes started ahead, each with its own host uid) and without it (BOXES_WARM_POOL=0), in the same run, alternating (so machine load hits both alike); each box
 * is deleted before the next. Then the same at the driver alone, split into its steps (disk, boot, first exec), to show
 * where the rest of the time goes. Every call must succeed. p50/p99 and boxes per second.
 *   npx tsx services/boxes/bench/create.ts [boxes=100] [pool=4]
 * Needs root, bubblewrap, loop devices and PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { subjects } from "@bancada/contracts";
import { MemoryBus, createLogger } from "@bancada/service-kit";
import { freshDatabase } from "@bancada/testkit";
import { createBoxesService, type BoxesService } from "../src/index.js";
import type { LocalDriver } from "../src/driver/local/local-driver.js";
import { boxPaths, makeDisk } from "../src/driver/local/box-disk.js";
import { createDisk, removeDisk } from "../src/driver/local/disk-image.js";
import { benchPrincipal, loadAverage, stats, tableRow, timed, unmountAll } from "./bench-kit.js";

const boxes = Number(process.argv[2] ?? 100);
const poolSize = Number(process.argv[3] ?? 4);
const log = createLogger("bench", "silent");
const row = (cells: string[], rest?: number) => tableRow(cells, 40, rest);
const principal = benchPrincipal(["boxes:read", "boxes:write", "boxes:delete", "boxes:exec"]);

interface Side {
  name: string;
  service: BoxesService;
  dataDir: string;
  drop: () => Promise<void>;
  samples: number[];
  /** The same, split: create_box answered (running), then the first exec answered. */
  creates: number[];
  execs: number[];
}

async function side(name: string, pool: number): Promise<Side> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "bancada-boxes-bench-"));
  const database = await freshDatabase("bancada_bench");
  const bus = new MemoryBus();
  const warmPool = pool > 0 ? [{ dataGiB: 20, count: pool }] : [];
  const service = await createBoxesService({
    databaseUrl: database.url,
    bus,
    subjects: subjects("bench"),
    log,
    dataDir,
    warmPool,
    sshPort: null,
  });
  return {
    name,
    service,
    dataDir,
    samples: [],
    creates: [],
    execs: [],
    drop: async () => {
      const left = await service.db.box.findMany({ where: { state: { not: "deleted" } } });
      for (const box of left) await service.driver.destroy({ id: box.id, runtime: box.runtime }).catch(() => {});
      await service.stop();
      await bus.close();
      await database.drop();
      await unmountAll(dataDir);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function call<T>(service: BoxesService, tool: string, args: Record<string, unknown>): Promise<T> {
  const reply = await service.host.call(tool, args, principal);
  if (!reply.ok) throw new Error(`${tool}: ${reply.error.message}`);
  return reply.result as T;
}

/** create_box, then exec `true` until it answers; the box is deleted after (not timed). */
async function createAndRun(side: Side, index: number): Promise<void> {
  const started = performance.now();
  const { box } = await call<{ box: { id: string; state: string; stateReason: string | null } }>(side.service, "create_box", {
    name: `bench-${index}`,
  });
  const created = performance.now();
  if (box.state !== "running") throw new Error(`box ${box.id} is ${box.state}: ${box.stateReason}`);
  const ran = await call<{ exitCode: number }>(side.service, "exec", { boxId: box.id, cmd: "true" });
  if (ran.exitCode !== 0) throw new Error(`exec answered exit code ${ran.exitCode}`);
  const answered = performance.now();
  side.samples.push(answered - started);
  side.creates.push(created - started);
  side.execs.push(answered - created);
  await call(side.service, "delete_box", { boxId: box.id, confirm: true });
}

const pooled = await side(`warm pool of ${poolSize}`, poolSize);
const cold = await side("no pool (disk and sandbox made on create)", 0);
try {
  const pool = (pooled.service.driver as LocalDriver).pool;
  if (!pool?.startsBoxes) throw new Error("the pooled service has no pool of started boxes: are loop devices missing?");
  await pool.filled();
  console.log(`${boxes} boxes each, alternating; load average ${loadAverage().join(" ")}`);
  for (let i = 0; i < boxes; i++) {
    for (const current of i % 2 === 0 ? [pooled, cold] : [cold, pooled]) await createAndRun(current, i);
    // The pool refills in the background between creates, as it would between real ones.
    await pool.filled();
  }
  console.log(row(["create_box → first exec answered", "p50 ms", "p99 ms", "boxes/s"]));
  for (const current of [pooled, cold]) {
    const { p50, p99 } = stats(current.samples);
    const total = current.samples.reduce((sum, ms) => sum + ms, 0);
    console.log(row([`  ${current.name}`, p50.toFixed(0), p99.toFixed(0), ((current.samples.length * 1000) / total).toFixed(1)]));
    for (const [step, samples] of [
      ["    create_box answered (running)", current.creates],
      ["    then the first exec answered", current.execs],
    ] as const)
      console.log(row([step, stats(samples).p50.toFixed(0), stats(samples).p99.toFixed(0)]));
  }
  await driverSteps(pooled, cold);
  console.log(`load average after: ${loadAverage().join(" ")}`);
} finally {
  await pooled.drop();
  await cold.drop();
}

/**
 * The driver alone, warm pool against none, split into steps: the disk (a pooled one is already made and given to its
 * uid; without the pool it is copied from the template, mounted, filled and handed to the box's user), the whole
 * create (with the pool: the reserved box bound — state renamed, mount moved, name, limits; without it: the disk, the
 * cgroups and the sandbox's start) and the first exec (its entry into the box).
 */
async function driverSteps(warm: Side, coldSide: Side): Promise<void> {
  const rows = { disk: [[], []] as number[][], create: [[], []] as number[][], exec: [[], []] as number[][] };
  const sides = [warm, coldSide].map((current) => ({ current, driver: current.service.driver as LocalDriver }));
  const resources = { vcpus: 1, memMiB: 512, dataGiB: 20 };
  for (let i = 0; i < Math.min(boxes, 30); i++) {
    for (const [column, { current, driver }] of sides.entries()) {
      await driver.pool?.filled();
      if (!driver.pool) {
        const paths = boxPaths(current.dataDir, `bx_disk${i}`);
        rows.disk[column]!.push(
          await timed(async () => {
            await createDisk("image", paths, 20);
            await makeDisk(paths, "disk", 700_000);
          }),
        );
        await removeDisk(paths);
      }
      const id = `bx_bench${i}`;
      let runtime: unknown = null;
      rows.create[column]!.push(
        await timed(async () => {
          const hostUid = (await driver.reserveWarmBox(resources)) ?? 700_001 + i;
          runtime = await driver.create({ id, runtime: null, name: `steps-${i}`, ...resources, hostUid });
        }),
      );
      const box = { id, runtime };
      rows.exec[column]!.push(
        await timed(async () => {
          const request = { command: { cmd: "true" }, cwd: "/data/home", env: {}, timeoutMs: 30_000, maxOutputBytes: 1024 };
          const ran = await driver.exec(box, request);
          if (ran.exitCode !== 0) throw new Error(`exec answered exit code ${ran.exitCode}`);
        }),
      );
      await driver.destroy(box);
    }
  }
  console.log(row(["driver alone (p50 / p99 ms)", "warm pool", "no pool"], 18));
  for (const [name, [pooledSamples, coldSamples]] of Object.entries(rows)) {
    const cell = (samples: number[]) =>
      samples.length ? `${stats(samples).p50.toFixed(0)} / ${stats(samples).p99.toFixed(0)}` : "(made ahead)";
    console.log(row([`  ${name}`, cell(pooledSamples!), cell(coldSamples!)], 18));
  }
}
