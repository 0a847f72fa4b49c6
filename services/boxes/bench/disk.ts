/**
 * The disk operations against disk size: fork_box (one copy, until it runs) and save_snapshot (until ready) of a box
 * holding 100 MiB and then 1 GiB of real (random) data, beside a bare host `cp --sparse=always` of the same image in
 * the same run (the copy's own cost: what freezing, bookkeeping and booting add is the difference); then create_box →
 * running from scratch against from a snapshot of the 1 GiB disk. Every call must succeed. p50/p99 and MiB/s.
 *   npx tsx services/boxes/bench/disk.ts [iterations=3]
 * Needs root, bubblewrap, loop devices and PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { subjects } from "@bancada/contracts";
import { MemoryBus, createLogger } from "@bancada/service-kit";
import { freshDatabase } from "@bancada/testkit";
import { createBoxesService } from "../src/index.js";
import { benchPrincipal, loadAverage, stats, tableRow, timed, unmountAll } from "./bench-kit.js";

const run = promisify(execFile);
const iterations = Number(process.argv[2] ?? 3);
const log = createLogger("bench", "silent");
const row = (cells: string[]) => tableRow(cells, 36);
const principal = benchPrincipal(["boxes:read", "boxes:write", "boxes:delete", "boxes:exec", "images:read", "images:write"]);

const dataDir = await mkdtemp(path.join(tmpdir(), "bancada-boxes-bench-"));
const database = await freshDatabase("bancada_bench");
const bus = new MemoryBus();
const service = await createBoxesService({ databaseUrl: database.url, bus, subjects: subjects("bench"), log, dataDir });
await service.db.accountPlan.create({ data: { accountId: "bench", plan: "scale" } });
const call = async <T = Record<string, unknown>>(tool: string, args: Record<string, unknown>): Promise<T> => {
  const reply = await service.host.call(tool, args, principal);
  if (!reply.ok) throw new Error(`${tool}: ${reply.error.message}`);
  return reply.result as T;
};
type Box = { id: string; state: string; stateReason: string | null };
type Snapshot = { id: string; state: string; durationMs: number; sizeBytes: number; copyMethod: string };

try {
  const { box: source } = await call<{ box: Box }>("create_box", { name: "bench-source" });
  console.log(`iterations ${iterations}, load average ${loadAverage().join(" ")}`);
  console.log(row(["", "p50 ms", "p99 ms", "MiB/s p50", "held ms"]));
  let snapshotId = "";
  for (const mib of [100, 1024]) {
    await call("exec", { boxId: source.id, cmd: `rm -f data; head -c ${mib}M /dev/urandom > data && sync`, timeoutSeconds: 600 });
    const image = path.join(dataDir, "state", source.id, "disk.img");
    const allocated = ((await stat(image)).blocks * 512) / 1024 ** 2;
    const bare: number[] = [];
    const forks: number[] = [];
    const saves: number[] = [];
    const held: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const copy = path.join(dataDir, "bench-copy.img");
      bare.push(await timed(() => run("cp", ["--reflink=auto", "--sparse=always", image, copy])));
      await rm(copy, { force: true });
      let forked: Box[] = [];
      forks.push(await timed(async () => (forked = (await call<{ boxes: Box[] }>("fork_box", { boxId: source.id })).boxes)));
      if (forked[0]?.state !== "running") throw new Error(`fork is ${forked[0]?.state}: ${forked[0]?.stateReason}`);
      await call("delete_box", { boxId: forked[0].id, confirm: true });
      let saved: Snapshot | undefined;
      saves.push(await timed(async () => (saved = (await call<{ snapshot: Snapshot }>("save_snapshot", { boxId: source.id })).snapshot)));
      if (saved?.state !== "ready") throw new Error(`snapshot is ${saved?.state}`);
      held.push(saved.durationMs);
      snapshotId = saved.id;
    }
    const label = `${mib} MiB written (image ${allocated.toFixed(0)} MiB)`;
    console.log(label);
    for (const [name, samples] of [
      ["  host cp of the image", bare],
      ["  fork_box → copy running", forks],
      ["  save_snapshot → ready", saves],
    ] as const) {
      const { p50, p99 } = stats(samples);
      const heldNote = name.includes("snapshot") ? stats(held).p50.toFixed(0) : "";
      console.log(row([name, p50.toFixed(0), p99.toFixed(0), (allocated / (p50 / 1000)).toFixed(0), heldNote]));
    }
  }
  const method = (await service.db.snapshot.findUniqueOrThrow({ where: { id: snapshotId } })).copyMethod;
  console.log(`copy method on this machine: ${method} (${method === "reflink" ? "copy-on-write" : "plain sparse copy"})`);

  const fresh: number[] = [];
  const restored: number[] = [];
  for (let i = 0; i < Math.max(iterations, 5); i++) {
    for (const [samples, args] of [
      [fresh, {}],
      [restored, { snapshotId }],
    ] as const) {
      let made: Box | undefined;
      samples.push(await timed(async () => (made = (await call<{ box: Box }>("create_box", args)).box)));
      if (made?.state !== "running") throw new Error(`box is ${made?.state}: ${made?.stateReason}`);
      await call("delete_box", { boxId: made.id, confirm: true });
    }
  }
  console.log(row(["create_box → running", "p50 ms", "p99 ms"]));
  for (const [name, samples] of [
    ["  from scratch (empty disk)", fresh],
    ["  from the 1 GiB snapshot", restored],
  ] as const) {
    const { p50, p99 } = stats(samples);
    console.log(row([name, p50.toFixed(0), p99.toFixed(0)]));
  }
} finally {
  const boxes = await service.db.box.findMany({ where: { state: { not: "deleted" } } });
  for (const box of boxes) await service.driver.destroy({ id: box.id, runtime: box.runtime }).catch(() => {});
  await service.stop();
  await bus.close();
  await database.drop();
  await unmountAll(dataDir);
  await rm(dataDir, { recursive: true, force: true });
}
