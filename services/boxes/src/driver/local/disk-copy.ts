/**
 * Copies of a box's disk: the disks of fork_box copies and snapshots. A copy is copy-on-write (a reflink:
 * instant, shares blocks until either side writes) where the host filesystem can (btrfs, XFS), and a plain
 * sparse copy otherwise (ext4: only the written blocks are read and written). Which one this machine does
 * is found once at start (detectCopyMethod) and reported with every copy.
 *
 * Snapshots live in <dataDir>/snapshots/<account>/<snapshotId>/ (0700 root, never seen by a box): one folder
 * per account (named by a hash of the account id), holding `disk.img` (image disks) or `disk/` (folder disks).
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { chmod, chown, mkdir, rm, stat, writeFile } from "node:fs/promises";
import { makeOwnFolder } from "@bancada/service-kit";
import path from "node:path";
import { promisify } from "node:util";
import type { SnapshotHandle } from "../box-driver.js";
import { exists } from "./box-disk.js";
import type { DiskKind } from "./disk-image.js";

const run = promisify(execFile);

export type CopyMethod = "reflink" | "copy";

export interface SnapshotPaths {
  dir: string;
  image: string;
  folder: string;
}

export function snapshotPaths(dataDir: string, snapshot: SnapshotHandle): SnapshotPaths {
  const account = createHash("sha256").update(snapshot.accountId).digest("hex").slice(0, 32);
  const dir = path.join(dataDir, "snapshots", account, snapshot.id);
  return { dir, image: path.join(dir, "disk.img"), folder: path.join(dir, "disk") };
}

/** The store's folders, root-only; safe to repeat. */
export async function prepareSnapshotDir(dir: string): Promise<void> {
  for (const folder of [path.dirname(path.dirname(dir)), path.dirname(dir), dir]) {
    await mkdir(folder, { recursive: true });
    await chown(folder, 0, 0);
    await chmod(folder, 0o700);
  }
}

/** Whether the filesystem under `scratch` can reflink: a small file is cloned (or not) and removed. */
export async function detectCopyMethod(scratch: string): Promise<CopyMethod> {
  const probe = path.join(scratch, `.reflink-probe-${process.pid}`);
  try {
    await writeFile(`${probe}.a`, "probe");
    await run("cp", ["--reflink=always", `${probe}.a`, `${probe}.b`]);
    return "reflink";
  } catch {
    return "copy";
  } finally {
    await rm(`${probe}.a`, { force: true });
    await rm(`${probe}.b`, { force: true });
  }
}

/**
 * Copies an image file, or a disk folder's content into `target` (made here), keeping owners, modes and
 * holes. `--reflink=auto` clones where it can and copies otherwise; the signal kills the copy.
 */
export async function copyDiskFiles(kind: DiskKind, source: string, target: string, signal?: AbortSignal): Promise<void> {
  const options = signal ? { signal } : {};
  if (kind === "image") {
    await rm(target, { force: true });
    await run("cp", ["--reflink=auto", "--sparse=always", source, target], options);
    return;
  }
  await makeOwnFolder(target, 0o700);
  await run("cp", ["-a", "--reflink=auto", "--sparse=always", `${source}/.`, target], options);
}

/** Bytes a copy takes on the host: allocated blocks (a sparse image costs only what was written). */
export async function diskBytes(kind: DiskKind, target: string): Promise<number> {
  if (kind === "image") return (await stat(target)).blocks * 512;
  const { stdout } = await run("du", ["-s", "-B1", target]);
  return Number(stdout.split("\t")[0]) || 0;
}

/**
 * Copies a mounted image while its filesystem is held still, in one program: fsfreeze, the copies, the thaw. Three
 * programs started one after another from the service (each a fork of it) took most of a reflink copy's time on a
 * loaded machine; the clone itself is a few ms. The thaw runs whatever the copies did; a program killed between
 * freeze and thaw (the signal) leaves the caller's thaw to do it. Copies left half made are the caller's to remove.
 */
export async function copyImageFrozen(mountPoint: string, source: string, targets: string[], signal?: AbortSignal): Promise<void> {
  const script =
    'm=$1; s=$2; shift 2; /usr/sbin/fsfreeze -f "$m" || exit 1; rc=0; ' +
    'for d; do rm -f "$d" && cp --reflink=auto --sparse=always "$s" "$d" || { rc=1; break; }; done; ' +
    '/usr/sbin/fsfreeze -u "$m"; exit $rc';
  await run("/bin/sh", ["-c", script, "bancada-copy", mountPoint, source, ...targets], signal ? { signal } : {});
}

/** Whether fsfreeze is installed (util-linux): without it a copy holds only the box's processes still, and syncs. */
export function canFreeze(): Promise<boolean> {
  return exists("/usr/sbin/fsfreeze");
}

/**
 * Holds an image disk's filesystem still (`fsfreeze`: its dirty data written out, its journal committed,
 * new writes blocked) so a copy of the image file is a clean filesystem. Without fsfreeze on this machine,
 * the processes are held still already and `sync` writes everything out (the copy then replays its journal).
 */
export async function freezeFilesystem(mountPoint: string): Promise<boolean> {
  if (await exists("/usr/sbin/fsfreeze")) {
    await run("/usr/sbin/fsfreeze", ["-f", mountPoint]);
    return true;
  }
  await run("sync", ["-f", mountPoint]);
  return false;
}

/** Lets writes through again; harmless when the filesystem is not frozen (delete calls it blindly). */
export async function thawFilesystem(mountPoint: string): Promise<void> {
  await run("/usr/sbin/fsfreeze", ["-u", mountPoint]).catch(() => {});
}

/** Grows an unmounted image to `dataGiB` (a box from a snapshot may ask for a larger disk); never shrinks. */
export async function growImage(image: string, dataGiB: number): Promise<void> {
  const bytes = dataGiB * 1024 ** 3;
  if ((await stat(image)).size >= bytes) return;
  await run("truncate", ["-s", String(bytes), image]);
  // resize2fs wants a just-checked filesystem; exit 1 means e2fsck fixed something, which is fine.
  await run("e2fsck", ["-f", "-y", image]).catch((error: { code?: number }) => {
    if (error.code !== 1) throw error;
  });
  await run("resize2fs", [image]);
}
