/**
 * Removing a tree a box could write, without host root ever walking it. A box's process may swap a folder for a
 * symbolic link to a host path while the tree is walked (renameat2 RENAME_EXCHANGE in a loop): a recursive removal as
 * host root that follows the swapped link deletes host files. So the walk runs as the box's own host uid, root of a
 * user namespace that maps only that uid (asBoxUser, the way bubblewrap starts the box): it may remove what the box
 * could remove and nothing else, whatever links it meets. GNU rm also never follows a link it walks into.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { lstat, readdir, rename, rmdir } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { asBoxUser } from "./sandbox.js";

const run = promisify(execFile);

/** The prefix of a folder moved aside for removal; one left by a failed removal is removed at the next start. */
const asidePrefix = ".bancada-removed-";

/**
 * Removes `target` (a folder in a box's disk, or the disk's root folder itself) as the box's uid; false when some of
 * it stays (what the box's uid may not remove, or what a live process of the box made meanwhile).
 */
export async function removeAsBoxUser(target: string, uid: number): Promise<boolean> {
  const info = await lstat(target).catch(() => null);
  if (!info) return true;
  // An empty folder (a fresh box's /tmp) needs no walk: rmdir alone, no process started.
  if (info.isDirectory() && (await removeEmpty(target))) return true;
  // Everything below target, as the box's uid; target itself may sit in a root-owned folder (the disk's root in mnt/).
  const [file, ...args] = asBoxUser(uid);
  await run(file!, [...args, "/bin/rm", "-rf", "--one-file-system", "--", target], {
    env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
  }).catch(() => {});
  if (info.isDirectory()) await removeEmpty(target);
  return lstat(target).then(
    () => false,
    () => true,
  );
}

/** rmdir: an empty folder only, never a walk. */
function removeEmpty(dir: string): Promise<boolean> {
  return rmdir(dir).then(
    () => true,
    () => false,
  );
}

/** Moves a folder of a box's disk aside (one rename, no walk) and returns where it went. */
export async function moveAside(folder: string): Promise<string | null> {
  const aside = path.join(path.dirname(folder), `${asidePrefix}${randomBytes(6).toString("hex")}`);
  try {
    await rename(folder, aside);
    return aside;
  } catch (error) {
    ignoreMissing(error);
    return null;
  }
}

/** Folders moved aside in `dir` whose removal did not finish (a crash, a failed start). */
export async function movedAside(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => []);
  return names.filter((name) => name.startsWith(asidePrefix)).map((name) => path.join(dir, name));
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
}
