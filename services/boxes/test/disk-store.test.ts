/**
 * The disk store (src/driver/local/disk-store.ts): where the data folder cannot reflink (ext4), box images and
 * snapshots live on an XFS image with reflink=1, so fork_box and save_snapshot copies are reflinks; it is made once,
 * found again by the next start, mounted again after a reboot, and its disks survive all of it. Where it is turned off,
 * or the data folder already holds disks, copies are sparse copies and say so (method "copy").
 */
import { execFileSync, spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLogger } from "@bancada/service-kit";
import { expect, it } from "vitest";
import { createLocalDriver, type LocalDriver } from "../src/index.js";
import type { DiskStoreOptions } from "../src/driver/local/disk-store.js";
import { cleanupAfterTest, describeBoxes, mountsUnder } from "./stack.js";

/** Why the store cannot be tried here, or null. */
function whyNoStore(): string | null {
  if (!existsSync("/dev/loop-control")) return "no loop devices";
  if (!existsSync("/usr/sbin/mkfs.xfs")) return "mkfs.xfs is missing (apt-get install xfsprogs)";
  const probe = mkdtempSync(path.join(tmpdir(), "bancada-reflink-probe-"));
  try {
    execFileSync("sh", ["-c", `echo x > ${probe}/a && cp --reflink=always ${probe}/a ${probe}/b`], { stdio: "pipe" });
    return "the temporary folder reflinks already: no store is needed";
  } catch {
    return null;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const noStore = whyNoStore();
const log = createLogger("store", "silent");

describeBoxes("disk store", () => {
  it("when the data folder cannot reflink, then images and snapshots live on an XFS store: copies are reflinks, and it survives a restart and a remount", async (context) => {
    if (noStore) return context.skip(noStore);
    const { dataDir, driver, hostUid } = await storeDriver({ mode: "auto", sizeGiB: 64 });
    expect(mounted(dataDir)).toEqual([
      [path.join(dataDir, "snapshots"), "xfs"],
      [path.join(dataDir, "state"), "xfs"],
    ]);
    expect(existsSync(path.join(dataDir, "disks.xfs"))).toBe(true);

    const source = await boxOn(driver, "source", hostUid);
    const wrote = await exec(driver, source, "head -c 64M /dev/urandom > /data/home/data && sha256sum /data/home/data");
    const fork = { id: `${source.id}f`, runtime: null as unknown };
    cleanupAfterTest(() => driver.destroy(fork));
    const snapshot = { id: `sn_store${randomInt(0, 1_000_000)}`, accountId: "acct-store" };
    const copy = await driver.copyDisk(source, [
      { kind: "box", id: fork.id },
      { kind: "snapshot", snapshot },
    ]);
    expect(copy.method).toBe("reflink");
    fork.runtime = await driver.createFromCopy({ ...fork, name: "fork", vcpus: 1, memMiB: 512, dataGiB: 20, hostUid: hostUid + 1 });
    expect(await exec(driver, fork, "sha256sum /data/home/data")).toBe(wrote);

    // A restart finds the store mounted and mounts nothing twice.
    await driver.close();
    const again = await createLocalDriver({ dataDir, log, probeUid: hostUid });
    cleanupAfterTest(() => again.close());
    expect(mounted(dataDir)).toHaveLength(2);

    // After a reboot (nothing mounted), the next start mounts the store again, with the disks on it.
    await again.destroy(fork);
    await again.stop(source);
    // Box disks first (their images are files on the store), then the store's two mounts.
    const store = [path.join(dataDir, "snapshots"), path.join(dataDir, "state")];
    for (const point of [...mountsUnder(dataDir).filter((point) => !store.includes(point)), ...store]) execFileSync("umount", [point]);
    expect(mounted(dataDir)).toEqual([]);
    const rebooted = await createLocalDriver({ dataDir, log, probeUid: hostUid });
    cleanupAfterTest(() => rebooted.close());
    expect(mounted(dataDir)).toHaveLength(2);
    source.runtime = await rebooted.start({ ...source, name: "source", vcpus: 1, memMiB: 512, dataGiB: 20, hostUid });
    expect(await exec(rebooted, source, "sha256sum /data/home/data")).toBe(wrote);
    const restored = { id: `${source.id}r`, runtime: null as unknown };
    cleanupAfterTest(() => rebooted.destroy(restored));
    restored.runtime = await rebooted.createFromCopy(
      { ...restored, name: "restored", vcpus: 1, memMiB: 512, dataGiB: 20, hostUid: hostUid + 2 },
      snapshot,
    );
    expect(await exec(rebooted, restored, "sha256sum /data/home/data")).toBe(wrote);
  }, 180_000);

  it("when a driver closes and no disk is on the store, then the store is unmounted (the data folder can go), and the next start mounts it again", async (context) => {
    if (noStore) return context.skip(noStore);
    const { dataDir, driver, hostUid } = await storeDriver({ mode: "auto", sizeGiB: 8 });
    const box = await boxOn(driver, "brief", hostUid);
    await driver.destroy(box);
    expect(mounted(dataDir)).toHaveLength(2);
    await driver.close();
    expect(mounted(dataDir)).toEqual([]);
    const next = await createLocalDriver({ dataDir, log, probeUid: hostUid });
    cleanupAfterTest(() => next.close());
    expect(mounted(dataDir).map(([, type]) => type)).toEqual(["xfs", "xfs"]);
  }, 120_000);

  it("when a process still has its folder in the store as the driver closes, then the store is unmounted once it ends", async (context) => {
    if (noStore) return context.skip(noStore);
    const { dataDir, driver } = await storeDriver({ mode: "auto", sizeGiB: 8 });
    // a process ending just after close begins (as a service's last child does) keeps the mount busy for 300 ms
    const busy = spawn("sleep", ["0.3"], { cwd: path.join(dataDir, "state") });
    await new Promise((resolve) => busy.once("spawn", resolve));
    await driver.close();
    expect(mounted(dataDir)).toEqual([]);
  }, 120_000);

  it("when the store is off, or the data folder holds disks already, then copies are sparse copies and say so", async (context) => {
    if (noStore) return context.skip(noStore);
    const { dataDir, driver, hostUid } = await storeDriver({ mode: "off" });
    expect(mounted(dataDir)).toEqual([]);
    const source = await boxOn(driver, "plain", hostUid);
    const target = { id: `${source.id}c`, runtime: null as unknown };
    cleanupAfterTest(() => driver.destroy(target));
    expect((await driver.copyDisk(source, [{ kind: "box", id: target.id }])).method).toBe("copy");

    // Turned on later: the disks already there stay where they are (no store is made), and copies stay sparse.
    await driver.close();
    const later = await createLocalDriver({ dataDir, log, probeUid: hostUid, store: { mode: "auto" } });
    cleanupAfterTest(() => later.close());
    expect(mounted(dataDir)).toEqual([]);
    expect(existsSync(path.join(dataDir, "disks.xfs"))).toBe(false);
    expect((await later.copyDisk(source, [{ kind: "box", id: target.id }])).method).toBe("copy");
  }, 120_000);
});

async function storeDriver(store: DiskStoreOptions): Promise<{ dataDir: string; driver: LocalDriver; hostUid: number }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bancada-boxes-store-"));
  const hostUid = 300_000 + randomInt(0, 100_000) * 100;
  // Registered first, so it runs last: every driver and box of the test is gone by then.
  cleanupAfterTest(() => {
    for (const point of mountsUnder(dataDir)) execFileSync("umount", ["-l", point]);
    rmSync(dataDir, { recursive: true, force: true });
  });
  const driver = await createLocalDriver({ dataDir, log, probeUid: hostUid, store });
  cleanupAfterTest(() => driver.close());
  return { dataDir, driver, hostUid };
}

async function boxOn(driver: LocalDriver, name: string, hostUid: number) {
  const box = { id: `bx_store${randomInt(0, 1_000_000)}`, runtime: null as unknown };
  cleanupAfterTest(() => driver.destroy(box));
  box.runtime = await driver.create({ ...box, name, vcpus: 1, memMiB: 512, dataGiB: 20, hostUid });
  return box;
}

async function exec(driver: LocalDriver, box: { id: string; runtime: unknown }, cmd: string): Promise<string> {
  const ran = await driver.exec(box, { command: { cmd }, cwd: "/data/home", env: {}, timeoutMs: 60_000, maxOutputBytes: 65_536 });
  expect(ran.exitCode, ran.stderr.toString()).toBe(0);
  return ran.stdout.toString();
}

/** The store's mounts under the data folder (not the box disks), with their filesystem type. */
function mounted(dataDir: string): [string, string][] {
  return readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .map((line) => [line.split(" ")[4] ?? "", line.split(" - ")[1]?.split(" ")[0] ?? ""] as [string, string])
    .filter(([point]) => point === path.join(dataDir, "state") || point === path.join(dataDir, "snapshots"))
    .sort(([a], [b]) => a.localeCompare(b));
}
