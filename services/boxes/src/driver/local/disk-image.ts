/**
 * The box's disk and its size (dataGiB). Where the machine has loop devices, a box's disk is a sparse ext4
 * image (`state/<id>/disk.img`, dataGiB long, costing only what is written) mounted on a loop device at
 * `mnt/<id>`: a write past dataGiB fails inside the box with ENOSPC. Without loop devices the disk is a plain
 * folder at the same place, bound onto itself: the same nosuid,nodev mount, but no size limit (enforcement
 * says so). Either way the mount is the host's: it outlives the service, a start mounts it again when needed
 * (after a reboot), and a delete unmounts it (the loop device goes with it: `mount -o loop` sets autoclear).
 *
 * mkfs.ext4 of a 20 GiB image takes ~100 ms on this project's machines, most of a create_box: each size is made
 * once into `state/templates/<dataGiB>.img` (root-owned, never seen by a box) and a new disk is a sparse copy of
 * it (~4 MiB written, a few ms). The copy's root is handed to the box's user when its folders are made (makeDisk).
 */
import { execFile } from "node:child_process";
import { chmod, lstat, mkdir, readFile, rename, rm } from "node:fs/promises";
import { makeOwnFolder } from "@bancada/service-kit";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { exists, type BoxPaths } from "./box-disk.js";
import { removeAsBoxUser } from "./box-tree-removal.js";

const run = promisify(execFile);

export type DiskKind = "image" | "directory";

/** nosuid: a setuid program on the disk grants nothing; nodev: a device node on it opens nothing. */
const mountOptions = "nosuid,nodev";
/** No background zeroing of inode tables: it would write ~1.5% of the image's size for no use. */
const imageOptions = `loop,${mountOptions},noinit_itable`;

/** Whether images work here: a tiny one is made, mounted and removed under `scratch`. */
export async function detectDiskKind(scratch: string): Promise<{ kind: DiskKind; reason: string | null }> {
  if (!(await exists("/dev/loop-control"))) return { kind: "directory", reason: "no loop devices (/dev/loop-control is missing)" };
  const probe = path.join(scratch, `.disk-probe-${process.pid}`);
  const paths = { image: path.join(probe, "disk.img"), disk: path.join(probe, "mnt") };
  try {
    await mkdir(probe, { recursive: true });
    await makeImage(paths.image, 16 / 1024, 0);
    await mountImage(paths.image, paths.disk);
    await unmount(paths.disk);
    return { kind: "image", reason: null };
  } catch (error) {
    return { kind: "directory", reason: `disk images cannot be mounted here: ${errorText(error)}` };
  } finally {
    await unmount(paths.disk).catch(() => {});
    await rm(probe, { recursive: true, force: true });
  }
}

/** A new, empty disk of `dataGiB`, mounted (its root is handed to the box's user by makeDisk). */
export async function createDisk(kind: DiskKind, paths: BoxPaths, dataGiB: number): Promise<void> {
  await makeOwnFolder(paths.state, 0o700);
  if (kind === "image") {
    await rm(paths.image, { force: true });
    await run("cp", ["--reflink=auto", "--sparse=always", await templateImage(path.dirname(paths.state), dataGiB), paths.image]);
  }
  await mountDisk(kind, paths);
}

/** Templates being made by this process, by path: concurrent creates of a new size make it once. */
const makingTemplates = new Map<string, Promise<string>>();

/** The empty image of `dataGiB` new disks are copied from, made on first use (atomically: made aside, then renamed). */
function templateImage(stateDir: string, dataGiB: number): Promise<string> {
  const template = path.join(stateDir, "templates", `${dataGiB}.img`);
  let making = makingTemplates.get(template);
  if (!making) {
    making = (async () => {
      if (await exists(template)) return template;
      await makeOwnFolder(path.dirname(template), 0o700);
      const aside = `${template}.${process.pid}.${Date.now()}`;
      try {
        await makeImage(aside, dataGiB, 0);
        await rename(aside, template);
      } finally {
        await rm(aside, { force: true });
      }
      return template;
    })().finally(() => makingTemplates.delete(template));
    makingTemplates.set(template, making);
  }
  return making;
}

/** Mounts the box's disk unless it is mounted already (the common case: mounts outlive the service). */
export async function mountDisk(kind: DiskKind, paths: BoxPaths): Promise<void> {
  if (await isMounted(paths.disk)) return;
  if (kind === "image") return mountImage(paths.image, paths.disk);
  await makeOwnFolder(paths.disk, 0o700);
  await run("mount", ["--bind", paths.disk, paths.disk]);
  await run("mount", ["-o", `remount,bind,${mountOptions}`, paths.disk]);
}

export async function diskExists(kind: DiskKind, paths: BoxPaths): Promise<boolean> {
  return kind === "image" ? exists(paths.image) : exists(paths.disk);
}

/**
 * Unmounts after the box's processes are gone. The kernel may still be tearing down the box's mount
 * namespace (which holds the disk too) for a moment: retried, then detached lazily, so a delete never hangs.
 */
export async function unmount(mountPoint: string): Promise<void> {
  for (let attempt = 0; attempt < 25 && (await isMounted(mountPoint)); attempt++) {
    try {
      await run("umount", [mountPoint]);
    } catch {
      await sleep(40);
    }
  }
  if (await isMounted(mountPoint)) await run("umount", ["-l", mountPoint]);
}

/**
 * A folder disk (or a disk left mounted) belongs to the box's uid, and is removed as that uid: host root never
 * walks a tree a box could write (box-tree-removal.ts). An unmounted image's mount point is root's, and empty.
 */
export async function removeDisk(paths: BoxPaths): Promise<void> {
  await unmount(paths.disk);
  const owner = (await lstat(paths.disk).catch(() => null))?.uid ?? 0;
  if (owner > 0) await removeAsBoxUser(paths.disk, owner);
  else await rm(paths.disk, { recursive: true, force: true, maxRetries: 3 });
  await rm(paths.state, { recursive: true, force: true, maxRetries: 3 });
}

export async function isMounted(mountPoint: string): Promise<boolean> {
  return (await mountPoints()).has(mountPoint);
}

/** Every mount point of this mount namespace (octal escapes of mountinfo decoded). */
async function mountPoints(): Promise<Set<string>> {
  const text = await readFile("/proc/self/mountinfo", "utf8");
  const decode = (field: string) => field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
  return new Set(
    text
      .split("\n")
      .map((line) => line.split(" ")[4])
      .filter((field): field is string => Boolean(field))
      .map(decode),
  );
}

async function makeImage(image: string, dataGiB: number, uid: number): Promise<void> {
  await rm(image, { force: true });
  await run("truncate", ["-s", String(Math.round(dataGiB * 1024 ** 3)), image]);
  // -m 0: root in the box is not uid 0 on the host, so blocks reserved for uid 0 would only be lost to it.
  // Lazy init: the sparse image stays small; the journal and inode tables are written as they are used.
  await run("mkfs.ext4", ["-q", "-F", "-m", "0", "-E", `root_owner=${uid}:${uid},lazy_itable_init=1,lazy_journal_init=1`, image]);
}

async function mountImage(image: string, mountPoint: string): Promise<void> {
  await makeOwnFolder(mountPoint, 0o700);
  await run("mount", ["-o", imageOptions, image, mountPoint]);
  // The image's root belongs to the box's user already (mkfs root_owner); nobody else may enter it.
  await chmod(mountPoint, 0o700);
}

function errorText(error: unknown): string {
  const stderr = String((error as { stderr?: unknown }).stderr ?? "").trim();
  return stderr || (error as Error).message;
}
