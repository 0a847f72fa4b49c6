/**
 * fork_box (until the copy runs) and save_snapshot (until ready) of a box holding 1 GiB of written (random) data, with
 * box images on the XFS disk store (driver/local/disk-store.ts: reflink copies) against the data folder's own
 * filesystem (BOXES_DISK_STORE=off: a sparse copy of every written block where that is ext4), in the same run,
 * alternating. Every call must succeed, and each side must have copied the way it is meant to. p50/p99 and MiB/s.
 *   npx tsx services/boxes/bench/copies.ts [iterations=5] [MiB=1024]
 * Needs root, bubblewrap, loop devices, mkfs.xfs and PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { subjects } from "@bancada/contracts";
import { MemoryBus, createLogger } from "@bancada/service-kit";
import { freshDatabase } from "@bancada/testkit";
import { createBoxesService, type BoxesService } from "../src/index.js";
import type { LocalDriver } from "../src/driver/local/local-driver.js";
import { copyDiskFiles, copyImageFrozen, freezeFilesystem, thawFilesystem } from "../src/driver/local/disk-copy.js";
import { benchPrincipal, loadAverage, stats, tableRow, timed, unmountAll } from "./bench-kit.js";

const iterations = Number(process.argv[2] ?? 5);
const mib = Number(process.argv[3] ?? 1024);
const log = createLogger("bench", "silent");
const row = (cells: string[]) => tableRow(cells, 40);
const principal = benchPrincipal(["boxes:read", "boxes:write", "boxes:delete", "boxes:exec", "images:read", "images:write"]);

type Box = { id: string; state: string; stateReason: string | null };
type Snapshot = { id: string; state: string; copyMethod: string | null };

interface Side {
  name: string;
  expected: "reflink" | "copy";
  dataDir: string;
  service: BoxesService;
  source: Box;
  forks: number[];
  saves: number[];
  drop: () => Promise<void>;
}

async function side(name: string, expected: Side["expected"]): Promise<Side> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "bancada-boxes-bench-"));
  const database = await freshDatabase("bancada_bench");
  const bus = new MemoryBus();
  const diskStore = { mode: expected === "reflink" ? ("auto" as const) : ("off" as const) };
  const service = await createBoxesService({
    databaseUrl: database.url,
    bus,
    subjects: subjects("bench"),
    log,
    dataDir,
    diskStore,
    warmPool: [],
    sshPort: null,
  });
  await service.db.accountPlan.create({ data: { accountId: "bench", plan: "scale" } });
  const { box: source } = await call<{ box: Box }>(service, "create_box", { name: "bench-source" });
  await call(service, "exec", { boxId: source.id, cmd: `head -c ${mib}M /dev/urandom > data && sync`, timeoutSeconds: 600 });
  const image = path.join(dataDir, "state", source.id, "disk.img");
  console.log(`${name}: image holds ${(((await stat(image)).blocks * 512) / 1024 ** 2).toFixed(0)} MiB`);
  return {
    name,
    expected,
    dataDir,
    service,
    source,
    forks: [],
    saves: [],
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

async function call<T = Record<string, unknown>>(service: BoxesService, tool: string, args: Record<string, unknown>): Promise<T> {
  const reply = await service.host.call(tool, args, principal);
  if (!reply.ok) throw new Error(`${tool}: ${reply.error.message}`);
  return reply.result as T;
}

async function forkAndSave(current: Side): Promise<void> {
  const { service, source } = current;
  let forked: Box[] = [];
  current.forks.push(await timed(async () => (forked = (await call<{ boxes: Box[] }>(service, "fork_box", { boxId: source.id })).boxes)));
  if (forked[0]?.state !== "running") throw new Error(`fork is ${forked[0]?.state}: ${forked[0]?.stateReason}`);
  await call(service, "delete_box", { boxId: forked[0].id, confirm: true });
  let saved: Snapshot | undefined;
  current.saves.push(
    await timed(async () => (saved = (await call<{ snapshot: Snapshot }>(service, "save_snapshot", { boxId: source.id })).snapshot)),
  );
  if (saved?.state !== "ready") throw new Error(`snapshot is ${saved?.state}`);
  if (saved.copyMethod !== current.expected) throw new Error(`${current.name} copied by ${saved.copyMethod}, not ${current.expected}`);
}

const sides: Side[] = [];
try {
  sides.push(await side("XFS disk store (reflink)", "reflink"));
  sides.push(await side("data folder as is (sparse copy)", "copy"));
  console.log(`${iterations} iterations, ${mib} MiB written, load average ${loadAverage().join(" ")}`);
  for (let i = 0; i < iterations; i++) for (const current of i % 2 === 0 ? sides : [...sides].reverse()) await forkAndSave(current);
  console.log(row(["", "p50 ms", "p99 ms", "MiB/s p50"]));
  for (const current of sides) {
    console.log(current.name);
    for (const [name, samples] of [
      ["  fork_box → copy running", current.forks],
      ["  save_snapshot → ready", current.saves],
    ] as const) {
      const { p50, p99 } = stats(samples);
      console.log(row([name, p50.toFixed(0), p99.toFixed(0), (mib / (p50 / 1000)).toFixed(0)]));
    }
  }
  await driverSteps(sides);
  console.log(`load average after: ${loadAverage().join(" ")}`);
} finally {
  for (const current of sides) await current.drop();
}

/**
 * Where a copy's time goes, at the driver alone: the copy of the disk (the box's processes and filesystem held still,
 * the image copied, let go) and, for a fork, the new box's start from it (its disk mounted and handed to its uid,
 * its sandbox started). What the tools add to these is the service's own work (PostgreSQL, the answer).
 */
async function driverSteps(all: Side[]): Promise<void> {
  console.log(tableRow(["driver alone (p50 / p99 ms)", ...all.map((current) => current.expected)], 40, 18));
  const steps = {
    "copy (held still, copied, let go)": all.map(() => [] as number[]),
    "  its freeze+copy+thaw, 1 program": all.map(() => [] as number[]),
    "  the same as 3 programs (before)": all.map(() => [] as number[]),
    "fork's start from the copy": all.map(() => [] as number[]),
  };
  for (let i = 0; i < iterations; i++)
    for (const [column, current] of all.entries()) {
      const driver = current.service.driver as LocalDriver;
      const source = await current.service.db.box.findUniqueOrThrow({ where: { id: current.source.id } });
      const id = `bx_steps${i}`;
      steps["copy (held still, copied, let go)"][column]!.push(
        await timed(() => driver.copyDisk({ id: source.id, runtime: source.runtime }, [{ kind: "box", id }])),
      );
      // The filesystem part alone, both ways, on the source's mounted disk (its processes idle).
      const disk = path.join(current.dataDir, "mnt", source.id);
      const image = path.join(current.dataDir, "state", source.id, "disk.img");
      const aside = path.join(current.dataDir, "state", `copy-${i}.img`);
      steps["  its freeze+copy+thaw, 1 program"][column]!.push(await timed(() => copyImageFrozen(disk, image, [aside])));
      steps["  the same as 3 programs (before)"][column]!.push(
        await timed(async () => {
          await freezeFilesystem(disk);
          await copyDiskFiles("image", image, aside).finally(() => thawFilesystem(disk));
        }),
      );
      await rm(aside, { force: true });
      let runtime: unknown = null;
      const spec = {
        id,
        runtime: null,
        name: `steps-${i}`,
        vcpus: source.vcpus,
        memMiB: source.memMiB,
        dataGiB: source.dataGiB,
        hostUid: 900_000 + i,
      };
      steps["fork's start from the copy"][column]!.push(await timed(async () => (runtime = await driver.createFromCopy(spec))));
      await driver.destroy({ id, runtime });
    }
  for (const [name, columns] of Object.entries(steps)) {
    const cell = (samples: number[]) => `${stats(samples).p50.toFixed(0)} / ${stats(samples).p99.toFixed(0)}`;
    console.log(tableRow([`  ${name}`, ...columns.map(cell)], 40, 18));
  }
}
