/**
 * The disk store: the filesystem box images and snapshots live on. fork_box and save_snapshot copy a whole image,
 * which is a reflink (a few ms, whatever the size: the blocks are shared until either side writes) where that
 * filesystem can clone files (XFS with reflink=1, btrfs), and a sparse copy of every written block otherwise (ext4:
 * ~1.2 s per GiB written here). When the data folder is on a filesystem that cannot clone and mkfs.xfs is installed,
 * a sparse XFS image `<dataDir>/disks.xfs` (reflink=1) is made once and loop-mounted on `<dataDir>/state`, with its
 * `.snapshots` folder bound onto `<dataDir>/snapshots`: every path stays what it was, and both sides of every copy are
 * on one filesystem. Mounted `discard`, so what boxes free inside it is freed in the data folder too.
 *
 * The store is made only for a data folder that holds no box disk and no snapshot yet (moving them would be a copy
 * of everything); such a folder keeps its sparse copies and says why at start. Mounts outlive the service while
 * box disks or snapshots are on them, as box disks do: a start mounts what is not mounted (after a reboot) and finds
 * the rest in place. A driver that closes with neither left unmounts the store, so an emptied data folder can be removed.
 */
import { execFile } from "node:child_process";
import { chmod, chown, mkdir, readdir, rename, rm, statfs } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { exists } from "./box-disk.js";
import { isMounted, unmount } from "./disk-image.js";

const run = promisify(execFile);

export interface DiskStoreOptions {
  /** "off": box images stay on the data folder's own filesystem. */
  mode: "auto" | "off";
  /** The store's size cap (sparse: it takes only what is written); default: the data folder's free space. */
  sizeGiB?: number;
}

/** What start found: whether box images and snapshots are on the XFS store, and why not. */
export interface DiskStore {
  mounted: boolean;
  /** Why the data folder's own filesystem holds the disks (null when the store is mounted or not needed). */
  reason: string | null;
}

const storeImageName = "disks.xfs";
const snapshotsInStore = ".snapshots";

export async function openDiskStore(
  dataDir: string,
  options: DiskStoreOptions,
  canClone: (dir: string) => Promise<boolean>,
): Promise<DiskStore> {
  const image = path.join(dataDir, storeImageName);
  const state = path.join(dataDir, "state");
  if (options.mode === "off") return { mounted: false, reason: null };
  if (await exists(image)) {
    await mountStore(dataDir);
    return { mounted: true, reason: null };
  }
  if (await canClone(state)) return { mounted: false, reason: null };
  if (!(await exists("/usr/sbin/mkfs.xfs")))
    return { mounted: false, reason: "the data folder cannot reflink and mkfs.xfs is missing (Debian: apt-get install xfsprogs)" };
  if (await holdsDisks(dataDir))
    return { mounted: false, reason: "the data folder holds box disks or snapshots already: the XFS store is made only for a new one" };
  await makeStoreImage(image, options.sizeGiB ?? (await freeGiB(dataDir)));
  // What a store-less start left in state/ (the empty template images) goes: the store's own are made on first use.
  await rm(path.join(state, "templates"), { recursive: true, force: true });
  await mountStore(dataDir);
  return { mounted: true, reason: null };
}

/** At close: a store holding no box disk and no snapshot is unmounted (it is mounted again at the next start). */
export async function closeDiskStore(dataDir: string): Promise<void> {
  const state = path.join(dataDir, "state");
  if (!(await isMounted(state)) || (await holdsDisks(dataDir))) return;
  // a busy mount (a process of the service's just ending) is tried again, as a box disk's is
  for (const point of [path.join(dataDir, "snapshots"), state]) await unmount(point).catch(() => {});
}

/** Mounts the store on state/ and its snapshots folder on snapshots/, each unless it is mounted already. */
async function mountStore(dataDir: string): Promise<void> {
  const state = path.join(dataDir, "state");
  const snapshots = path.join(dataDir, "snapshots");
  if (!(await isMounted(state))) await run("mount", ["-o", "loop,nosuid,nodev,discard", path.join(dataDir, storeImageName), state]);
  await rootOnly(state);
  const inStore = path.join(state, snapshotsInStore);
  await rootOnly(inStore);
  await rootOnly(snapshots);
  if (!(await isMounted(snapshots))) await run("mount", ["--bind", inStore, snapshots]);
}

async function makeStoreImage(image: string, sizeGiB: number): Promise<void> {
  const aside = `${image}.${process.pid}`;
  try {
    await run("truncate", ["-s", `${Math.max(1, Math.floor(sizeGiB))}G`, aside]);
    await run("/usr/sbin/mkfs.xfs", ["-q", "-f", "-m", "reflink=1", aside]);
    await rename(aside, image);
    await chmod(image, 0o600);
  } finally {
    await rm(aside, { force: true });
  }
}

/** A box's state folder or a snapshot there (the probes, templates and emptied account folders are not disks). */
async function holdsDisks(dataDir: string): Promise<boolean> {
  const state = await readdir(path.join(dataDir, "state")).catch(() => []);
  if (state.some((name) => name.startsWith("bx_"))) return true;
  const snapshots = path.join(dataDir, "snapshots");
  for (const account of await readdir(snapshots).catch(() => []))
    if ((await readdir(path.join(snapshots, account)).catch(() => [])).length > 0) return true;
  return false;
}

async function freeGiB(dataDir: string): Promise<number> {
  const fs = await statfs(dataDir);
  return (fs.bavail * fs.bsize) / 1024 ** 3;
}

async function rootOnly(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await chown(dir, 0, 0);
  await chmod(dir, 0o700);
}
