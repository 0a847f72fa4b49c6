/**
 * The warm pool: image disks made ahead of create_box — copied from the empty template, mounted and filled
 * (fillDisk: /etc, home, /var…) — so that a create only renames one into place and hands it to the box's user
 * (handDisk). How many of each size is configuration (BOXES_WARM_POOL); after each claim the pool is refilled in the
 * background, one disk at a time.
 *
 * Given a source of host uids (`PoolSandboxes`), each pooled disk is a whole box started ahead: its disk handed to a
 * fresh host uid of its own (from the same sequence as every box's, so never a uid another box had), its cgroups
 * made and its sandbox (bubblewrap and the box's pid 1) running as that uid. create_box reserves one (`reserve`: the
 * uid it records as the box's) and the driver's create binds it (`bind`): the state folder renamed, the mount moved,
 * and the driver gives it the box's name and limits. What a create then waits for is a rename and a few small files,
 * not a sandbox's start (see docs/boxes.md, "How fast, and why").
 *
 * A pooled disk or box is made fresh and given to one box, never back: it holds nothing of another box, so of another
 * account, and nothing a box ever wrote; a reservation not bound in time (the create failed before it reached the
 * driver) is ended and removed, never offered again. Until it is bound a pooled disk's files are root's (or, with a
 * sandbox, its own uid's: only its idle pid 1 ever ran there), its state folder `state/pool-<id>/` and its mount point
 * `mnt/pool-<id>/` are 0700, and no box sees it. Each pooled disk is named by the process that made it
 * (`pool-<pid>.<start time>-<id>`: a pid alone is reused, by a restarted container's process first of all):
 * replicas may share a data folder (two on one node), so a start removes only the pooled disks (and ends the pooled
 * sandboxes) of processes that no longer run (a crash, a kill -9), never another live replica's; a driver that closes
 * removes its own.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { readdir, rename, rm, rmdir } from "node:fs/promises";
import path from "node:path";
import { execFile } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { makeOwnFolder, type Logger } from "@bancada/service-kit";
import { boxPaths, exists, fillDisk, handDisk, type BoxPaths } from "./box-disk.js";
import { createDisk, mountDisk, unmount } from "./disk-image.js";
import type { LocalRuntime } from "./sandbox.js";
import { pooledHostname } from "./warm-box.js";

const run = promisify(execFile);

/** How many pooled disks of one size (dataGiB) are kept ready. */
export interface PoolSize {
  dataGiB: number;
  count: number;
}

/** What the pool needs to start boxes ahead, not only disks (the driver's own steps). */
export interface PoolSandboxes {
  /** A host uid no box ever had (create_box's sequence). */
  hostUid(): Promise<number>;
  /** Makes the cgroups named `name` and starts the sandbox on the pooled disk as `uid`. */
  boot(name: string, paths: BoxPaths, uid: number): Promise<LocalRuntime>;
  /** Ends a pooled sandbox that was never bound (its processes, then its groups); its run folder says which. */
  end(name: string, runDir: string): Promise<void>;
}

/**
 * A box started ahead, being bound to a box by the driver: its sandbox's name (its groups', its box-id file's), its
 * runtime, and where its disk is mounted still (the driver moves the mount: `moveMount`).
 */
export interface WarmBox {
  name: string;
  runtime: LocalRuntime;
  mountedAt: string;
}

interface Pooled {
  name: string;
  disk: BoxPaths;
  dataGiB: number;
  sandbox: { uid: number; runtime: LocalRuntime } | null;
}

const poolPrefix = "pool-";
/**
 * A claim's refill waits this long: the new box's first commands come first, not the making of the next box (a disk
 * filled and a sandbox started: about a second of both cores on a loaded machine). At 0.3 s the refill ran into the
 * first exec of a box started ahead, which then took longer than a cold box's (bench/create.ts).
 */
const refillDelayMs = 1_000;
/** A reserved box not bound within this is dropped (the create that reserved it failed before reaching the driver). */
const reservationMs = 120_000;

export class DiskPool {
  readonly #dataDir: string;
  readonly #sizes: PoolSize[];
  readonly #log: Logger;
  readonly #sandboxes: PoolSandboxes | null;
  readonly #ready = new Map<number, Pooled[]>();
  /** Started boxes reserved by create_box, by their host uid, until the driver's create binds them. */
  readonly #reserved = new Map<number, { entry: Pooled; expiry: NodeJS.Timeout }>();
  #filling: Promise<void> | null = null;
  #refillTimer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(dataDir: string, sizes: PoolSize[], log: Logger, sandboxes: PoolSandboxes | null = null) {
    this.#dataDir = dataDir;
    this.#sizes = sizes.filter((size) => size.count > 0);
    this.#log = log;
    this.#sandboxes = sandboxes;
  }

  /** Whether pooled disks come with their box started (a host uid source was given). */
  get startsBoxes(): boolean {
    return this.#sandboxes !== null;
  }

  /** Disks ready now, by dataGiB. */
  counts(): Map<number, number> {
    return new Map([...this.#ready].map(([dataGiB, disks]) => [dataGiB, disks.length]));
  }

  /**
   * Moves a ready disk of `dataGiB` to the box's paths (its state folder renamed, its mount moved); false when the
   * pool has none of that size (the caller makes a disk the slow way). The box's user gets it from the caller.
   * Disks that come with a started box are only bound (`reserve`, `bind`), never claimed bare.
   */
  async claim(paths: BoxPaths, dataGiB: number): Promise<boolean> {
    if (this.#sandboxes) return false;
    const disk = this.#ready.get(dataGiB)?.shift();
    if (!disk) return false;
    this.#refillSoon();
    if ((await exists(paths.state)) || (await exists(paths.disk))) {
      await this.#remove(disk);
      return false;
    }
    await rename(disk.disk.state, paths.state);
    await makeOwnFolder(paths.disk, 0o700);
    // The mount moves as it is; where a mount cannot move (a shared parent), it is mounted again from the image.
    await run("mount", ["--move", disk.disk.disk, paths.disk]).catch(async () => {
      await unmount(disk.disk.disk);
      await mountDisk("image", paths);
    });
    await rmdir(disk.disk.disk).catch(() => {});
    return true;
  }

  /**
   * Takes a started box of `dataGiB` for the create_box about to be recorded: its host uid, which the box is recorded
   * with, or null when none is ready (the create makes its box the slow way).
   */
  reserve(dataGiB: number): number | null {
    const entry = this.#sandboxes && !this.#closed ? this.#ready.get(dataGiB)?.shift() : undefined;
    if (!entry?.sandbox) return null;
    // refilled once it is bound or released: the record of the box and its start come first
    const uid = entry.sandbox.uid;
    const expiry = setTimeout(() => void this.release(uid), reservationMs);
    expiry.unref();
    this.#reserved.set(uid, { entry, expiry });
    return uid;
  }

  /** A reservation the create will not use (its record failed or was a replay): its box is ended and removed. */
  async release(uid: number): Promise<void> {
    const reserved = this.#reserved.get(uid);
    if (!reserved) return;
    this.#reserved.delete(uid);
    clearTimeout(reserved.expiry);
    this.#refillSoon();
    await this.#remove(reserved.entry);
  }

  /**
   * The box reserved for `uid`, its state folder renamed to the box's and the box's mount point made; its disk is
   * still mounted where it was made, and the driver moves it (with the box's name, in one program: `moveMount`). null
   * when no box is reserved for that uid. From here the box is the caller's: its removal is the box's.
   */
  async bind(uid: number, paths: BoxPaths): Promise<WarmBox | null> {
    const reserved = this.#reserved.get(uid);
    if (!reserved?.entry.sandbox) return null;
    this.#reserved.delete(uid);
    clearTimeout(reserved.expiry);
    this.#refillSoon();
    const { entry } = reserved;
    if ((await exists(paths.state)) || (await exists(paths.disk))) {
      await this.#remove(entry);
      return null;
    }
    try {
      await rename(entry.disk.state, paths.state);
      await makeOwnFolder(paths.disk, 0o700);
    } catch (error) {
      await this.#remove(entry);
      throw error;
    }
    return { name: entry.name, runtime: entry.sandbox!.runtime, mountedAt: entry.disk.disk };
  }

  /** Makes the missing disks in the background, one at a time; a failure is logged and the pool waits for the next claim. */
  refill(): void {
    if (this.#closed || this.#filling || !this.#missing()) return;
    this.#filling = (async () => {
      for (let size = this.#missing(); size && !this.#closed; size = this.#missing()) {
        const name = `${poolPrefix}${processToken(process.pid)}-${randomBytes(8).toString("hex")}`;
        const entry: Pooled = { name, disk: boxPaths(this.#dataDir, name), dataGiB: size.dataGiB, sandbox: null };
        try {
          await createDisk("image", entry.disk, size.dataGiB);
          await fillDisk(entry.disk.disk);
          if (this.#sandboxes) await this.#start(entry, this.#sandboxes);
        } catch (error) {
          this.#log.warn({ err: error, dataGiB: size.dataGiB }, "could not make a disk for the warm pool");
          await this.#remove(entry);
          return;
        }
        if (this.#closed) await this.#remove(entry);
        else this.#ready.set(size.dataGiB, [...(this.#ready.get(size.dataGiB) ?? []), entry]);
      }
    })().finally(() => (this.#filling = null));
  }

  /** Resolves once the pool holds every disk it is configured for (or a fill failed). */
  async filled(): Promise<void> {
    while (this.#filling || this.#refillTimer) await (this.#filling ?? sleep(refillDelayMs / 4));
  }

  /** Stops refilling and removes every ready disk (and reserved box: its create has not reached the driver). */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#refillTimer) clearTimeout(this.#refillTimer);
    this.#refillTimer = null;
    await this.filled();
    const entries = [...this.#ready.values()].flat();
    this.#ready.clear();
    for (const { entry, expiry } of this.#reserved.values()) {
      clearTimeout(expiry);
      entries.push(entry);
    }
    this.#reserved.clear();
    for (const entry of entries) await this.#remove(entry);
  }

  /** The pooled disk handed to a fresh uid of its own, and its sandbox started as that uid. */
  async #start(entry: Pooled, sandboxes: PoolSandboxes): Promise<void> {
    const uid = await sandboxes.hostUid();
    await handDisk(entry.disk, pooledHostname, uid);
    // The box's own files but its name (hostname, hosts) are written now: binding it rewrites two small files.
    entry.sandbox = { uid, runtime: await sandboxes.boot(entry.name, entry.disk, uid) };
  }

  /** A pooled sandbox ended first (its processes, its groups), then the disk. */
  async #remove(entry: Pooled): Promise<void> {
    if (this.#sandboxes && (entry.sandbox || (await exists(entry.disk.run))))
      await this.#sandboxes.end(entry.name, entry.disk.run).catch((error: unknown) => {
        this.#log.warn({ err: error, pooled: entry.name }, "could not end a warm pool's sandbox");
      });
    await removePooled(entry.disk);
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
 * removed, their sandboxes ended first. Those of a live process — another replica on this data folder, or this one — are left to their owner.
 */
export async function removePoolLeftovers(dataDir: string, endSandbox: PoolSandboxes["end"]): Promise<number> {
  const names = new Set<string>();
  for (const folder of ["state", "mnt"])
    for (const name of await readdir(path.join(dataDir, folder)).catch(() => []))
      if (name.startsWith(poolPrefix) && !running(ownerOf(name))) names.add(name);
  for (const name of names) {
    const disk = boxPaths(dataDir, name);
    // A pooled sandbox outlives its service (it is detached, as boxes are): it is ended before its disk goes.
    await endSandbox(name, disk.run);
    await removePooled(disk);
  }
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
