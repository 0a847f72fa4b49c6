/**
 * Transfer URLs against `cp` of the same file on the same disk, in the same run, interleaved: upload (curl PUT
 * through a signed URL into a box, vs cp from the host folder onto the box's disk) and download (curl GET of the
 * box's file, vs cp of it off the box's disk), MB/s p50 and worst of `rounds`; and the service's peak RSS while
 * an upload streams (memory must not grow with the file).
 *   npx tsx services/boxes/bench/transfers.ts [sizeMiB=2048] [rounds=3]
 * Needs root, bubblewrap, curl and PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, open, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import express from "express";
import { subjects } from "@bancada/contracts";
import { MemoryBus, createLogger } from "@bancada/service-kit";
import { freshDatabase } from "@bancada/testkit";
import { createBoxesService } from "../src/index.js";
import { benchPrincipal, timed } from "./bench-kit.js";

const run = promisify(execFile);
const sizeMiB = Number(process.argv[2] ?? 2048);
const rounds = Number(process.argv[3] ?? 3);
const principal = benchPrincipal(["boxes:read", "boxes:write", "boxes:delete", "boxes:exec"]);

const dataDir = await mkdtemp(path.join(tmpdir(), "bancada-transfer-bench-"));
const work = await mkdtemp(path.join(tmpdir(), "bancada-transfer-work-"));
const database = await freshDatabase("bancada_bench");
const bus = new MemoryBus();
const service = await createBoxesService({
  databaseUrl: database.url,
  bus,
  subjects: subjects("bench"),
  log: createLogger("bench", "silent"),
  dataDir,
});
const app = express().use(service.routes);
const server = app.listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
service.runtime.transfers.publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const call = async <T>(tool: string, args: Record<string, unknown>): Promise<T> => {
  const reply = await service.host.call(tool, args, principal);
  if (!reply.ok) throw new Error(`${tool}: ${reply.error.message}`);
  return reply.result as T;
};

try {
  const { box } = await call<{ box: { id: string } }>("create_box", { name: "transfer-bench", dataGiB: 20 });
  const boxHome = path.join(dataDir, "mnt", box.id, "home");
  const source = path.join(work, "source.bin");
  await writeSource(source, sizeMiB);
  const bytes = sizeMiB * 1024 * 1024;
  const rates: Record<string, number[]> = { "upload, signed URL (curl PUT)": [], "upload baseline: cp onto the box's disk": [] };
  Object.assign(rates, { "download, signed URL (curl GET)": [], "download baseline: cp off the box's disk": [] });
  let peakRss = 0;
  const baseRss = process.memoryUsage().rss;
  for (let round = 0; round < rounds; round++) {
    const up = await call<{ url: string }>("get_upload_url", { boxId: box.id, path: "uploaded.bin" });
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
    const upload = await seconds(() => run("curl", ["-fsS", "-X", "PUT", "-T", source, up.url]));
    clearInterval(sampler);
    rates["upload, signed URL (curl PUT)"]!.push(bytes / upload);
    rates["upload baseline: cp onto the box's disk"]!.push(
      bytes / (await seconds(() => run("cp", [source, path.join(boxHome, "copied.bin")]))),
    );
    const down = await call<{ url: string }>("get_download_url", { boxId: box.id, path: "uploaded.bin" });
    const target = path.join(work, "downloaded.bin");
    rates["download, signed URL (curl GET)"]!.push(bytes / (await seconds(() => run("curl", ["-fsS", "-o", target, down.url]))));
    await rm(target);
    rates["download baseline: cp off the box's disk"]!.push(
      bytes / (await seconds(() => run("cp", [path.join(boxHome, "uploaded.bin"), target]))),
    );
    await rm(target);
    const check = await call<{ stdout: string }>("exec", { boxId: box.id, cmd: "cmp uploaded.bin copied.bin && echo same" });
    if (check.stdout.trim() !== "same") throw new Error("the uploaded file differs from the source");
  }
  console.log(`${sizeMiB} MiB file, ${rounds} rounds (interleaved), MB/s = MiB per second`);
  console.log(row(["", "p50 MB/s", "worst MB/s"]));
  for (const [label, samples] of Object.entries(rates)) {
    const sorted = [...samples].sort((a, b) => a - b);
    console.log(row([label, (sorted[Math.floor(sorted.length / 2)]! / 1024 / 1024).toFixed(0), (sorted[0]! / 1024 / 1024).toFixed(0)]));
  }
  console.log(
    `service RSS: ${(baseRss / 1024 / 1024).toFixed(0)} MiB before, peak ${(peakRss / 1024 / 1024).toFixed(0)} MiB while uploading`,
  );
} finally {
  server.close();
  const boxes = await service.db.box.findMany({ where: { state: { not: "deleted" } } });
  for (const box of boxes) await service.driver.destroy({ id: box.id, runtime: box.runtime }).catch(() => {});
  await service.stop();
  await bus.close();
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
}

/** A file of `mib` MiB (one random MiB repeated: nothing on the way compresses). */
async function writeSource(file: string, mib: number): Promise<void> {
  const block = randomBytes(1024 * 1024);
  const handle = await open(file, "w");
  for (let i = 0; i < mib; i++) await handle.write(block);
  await handle.close();
}

/** Seconds the work took. */
async function seconds(work: () => Promise<unknown>): Promise<number> {
  return (await timed(work)) / 1000;
}

function row(cells: string[]): string {
  return cells.map((cell, index) => (index === 0 ? cell.padEnd(42) : cell.padStart(11))).join(" ");
}
