/**
 * The warm pool of disks: image disks made ahead of create_box — copied from the empty template, mounted and filled
 * (fillDisk: /etc, home, /var…) — so that a create only renames one into place and hands it to the box's user
 * (handDisk). How many of each size is configuration (BOXES_WARM_POOL); after each claim the pool is refilled in the
 * background, one disk at a time.
 *
 * A pooled disk is made fresh from the template and given to one box, never back: it holds nothing of another box,
 * so of another account, and nothing a box ever wrote. Until it is claimed it is root's — its files, its state folder
 * `state/pool-<id>/` and its mount point `mnt/pool-<id>/` (0700) — and no box sees it, so removing it as host root
 * walks no tree a box could write. Each pooled disk is named by the process that made it (`pool-<pid>.<start time>-<id>`: a pid
 * alone is reused, by a restarted container's process first of all):
 * replicas may share a data folder (two on one node), so a start removes only the pooled disks of processes that no
 * longer run (a crash, a kill -9), never another live replica's; a driver that closes removes its own.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { readdir, rename, rm, rmdir } from "node:fs/promises";
import path from "node:path";
import { execFile } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { makeOwnFolder, type Logger } from "@bancada/service-kit";
import { boxPaths, exists, fillDisk, type BoxPaths } from "./box-disk.js";
import { createDisk, mountDisk, unmount } from "./disk-image.js";

const run = promisify(execFile);

/** How many pooled disks of one size (dataGiB) are kept ready. */
export interface PoolSize {
  dataGiB: number;
  count: number;
}

const poolPrefix = "pool-";
/** A claim's refill waits this long: the new box's first commands come first, not the making of the next disk. */
const refillDelayMs = 300;

export class DiskPool {
  readonly #dataDir: string;
  readonly #sizes: PoolSize[];
  readonly #log: Logger;
  readonly #ready = new Map<number, BoxPaths[]>();
  #filling: Promise<void> | null = null;
  #refillTimer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(dataDir: string, sizes: PoolSize[], log: Logger) {
    this.#dataDir = dataDir;
    this.#sizes = sizes.filter((size) => size.count > 0);
    this.#log = log;
  }

  /** Disks ready now, by dataGiB. */
  counts(): Map<number, number> {
    return new Map([...this.#ready].map(([dataGiB, disks]) => [dataGiB, disks.length]));
  }

  /**
   * Moves a ready disk of `dataGiB` to the box's paths (its state folder renamed, its mount moved); false when the
   * pool has none of that size (the caller makes a disk the slow way). The box's user gets it from the caller.
   */
  async claim(paths: BoxPaths, dataGiB: number): Promise<boolean> {
    const disk = this.#ready.get(dataGiB)?.shift();
    if (!disk) return false;
    this.#refillSoon();
    if ((await exists(paths.state)) || (await exists(paths.disk))) {
      await removePooled(disk);
      return false;
    }
    await rename(disk.state, paths.state);
    await makeOwnFolder(paths.disk, 0o700);
    // The mount moves as it is; where a mount cannot move (a shared parent), it is mounted again from the image.
    await run("mount", ["--move", disk.disk, paths.disk]).catch(async () => {
      await unmount(disk.disk);
      await mountDisk("image", paths);
    });
    await rmdir(disk.disk).catch(() => {});
    return true;
  }

  /** Makes the missing disks in the background, one at a time; a failure is logged and the pool waits for the next claim. */
  refill(): void {
    if (this.#closed || this.#filling || !this.#missing()) return;
    this.#filling = (async () => {
      for (let size = this.#missing(); size && !this.#closed; size = this.#missing()) {
        const disk = boxPaths(this.#dataDir, `${poolPrefix}${processToken(process.pid)}-${randomBytes(8).toString("hex")}`);
        try {
          await createDisk("image", disk, size.dataGiB);
          await fillDisk(disk.disk);
        } catch (error) {
          this.#log.warn({ err: error, dataGiB: size.dataGiB }, "could not make a disk for the warm pool");
          await removePooled(disk);
          return;
        }
        if (this.#closed) await removePooled(disk);
        else this.#ready.set(size.dataGiB, [...(this.#ready.get(size.dataGiB) ?? []), disk]);
      }
    })().finally(() => (this.#filling = null));
  }

  /** Resolves once the pool holds every disk it is configured for (or a fill failed). */
  async filled(): Promise<void> {
    while (this.#filling || this.#refillTimer) await (this.#filling ?? sleep(refillDelayMs / 4));
  }

  /** Stops refilling and removes every ready disk. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#refillTimer) clearTimeout(this.#refillTimer);
    this.#refillTimer = null;
    await this.filled();
    const disks = [...this.#ready.values()].flat();
    this.#ready.clear();
    for (const disk of disks) await removePooled(disk);
  }

  #refillSoon(): void {
    if (this.#closed || this.#refillTimer) return;
    this.#refillTimer = setTimeout(() => {
      this.#refillTimer = null;
      this.refill();
    }, refillDelayMs);
    this.#refillTimer.unref();
  }

  #missing(): PoolSize | undefined {
    return this.#sizes.find((size) => (this.#ready.get(size.dataGiB)?.length ?? 0) < size.count);
  }
}

/**
 * At start: pooled disks a process left that no longer runs (it was killed before it closed) are unmounted and
 * removed. Those of a live process — another replica on this data folder, or this one — are left to their owner.
 */
export async function removePoolLeftovers(dataDir: string): Promise<number> {
  const names = new Set<string>();
  for (const folder of ["state", "mnt"])
    for (const name of await readdir(path.join(dataDir, folder)).catch(() => []))
      if (name.startsWith(poolPrefix) && !running(ownerOf(name))) names.add(name);
  for (const name of names) await removePooled(boxPaths(dataDir, name));
  return names.size;
}

/** `<pid>.<start time>` of a running process (its start in clock ticks after boot, /proc/<pid>/stat), or null. */
function processToken(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // the fields after the command name, which is in parentheses and may hold spaces: starttime is field 22
    const startTime = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    return startTime ? `${pid}.${startTime}` : null;
  } catch {
    return null;
  }
}

/** The `<pid>.<start time>` in a pooled disk's name; null for a name without one (an older version's). */
function ownerOf(name: string): string | null {
  return /^pool-(\d+\.\d+)-/.exec(name)?.[1] ?? null;
}

/** Whether the process that made a pooled disk still runs: the same pid started at the same time. */
function running(owner: string | null): boolean {
  return owner !== null && processToken(Number(owner.split(".")[0])) === owner;
}

/** A pooled disk is root's and was never a box's: unmounted, its image and mount point go. */
async function removePooled(disk: BoxPaths): Promise<void> {
  await unmount(disk.disk).catch(() => {});
  await rm(disk.state, { recursive: true, force: true, maxRetries: 3 });
  await rmdir(disk.disk).catch(() => {});
}
