/**
 * A local box on disk. Every folder has the narrowest mode that still works:
 *   <dataDir>/               0711 root  crossed on the way to the mounts, never listed
 *   <dataDir>/state/         0700 root  host-only, per box: disk.img (the box's disk, see disk-image.ts) and
 *                                       run/ (runtime.json, bwrap.log, jobs/<jobId>/{log,exit}); never seen by a box
 *   <dataDir>/mnt/           0711 root  where disks are mounted; bubblewrap runs as the box's own host user and
 *                                       must cross it to bind the box's folders
 *   <dataDir>/mnt/<id>/      0700 box   the disk's root, owned by the box's host user:
 *                                       home → /data/home, etc → /etc, var → /var, opt → /opt, root → /root, tmp → /tmp
 * Everything on a box's disk belongs to the box's unprivileged host user (a setuid bit there grants that user and
 * nothing more), and the disk is mounted nosuid,nodev. The box's /etc is its own copy, made at creation from a
 * list of harmless host files plus generated passwd/group/shadow/hosts: nothing of the host's secrets.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, chown, cp, lchown, lstat, mkdir, readFile, readdir, readlink, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { moveAside, movedAside, removeAsBoxUser } from "./box-tree-removal.js";

const run = promisify(execFile);

export interface BoxPaths {
  /** Host-only state of the box (its disk image, its run folder). */
  state: string;
  image: string;
  run: string;
  jobs: string;
  /** The root of the box's disk as mounted on the host. */
  disk: string;
  home: string;
  tmp: string;
}

export const diskMounts = [
  ["home", "/data/home"],
  ["etc", "/etc"],
  ["var", "/var"],
  ["opt", "/opt"],
  ["root", "/root"],
  ["tmp", "/tmp"],
] as const;

export function boxPaths(dataDir: string, boxId: string): BoxPaths {
  const state = path.join(dataDir, "state", boxId);
  const run = path.join(state, "run");
  const disk = path.join(dataDir, "mnt", boxId);
  return {
    state,
    image: path.join(state, "disk.img"),
    run,
    jobs: path.join(run, "jobs"),
    disk,
    home: path.join(disk, "home"),
    tmp: path.join(disk, "tmp"),
  };
}

/** The data folder's own layout (see the top of this file); safe to repeat at every start. */
export async function prepareDataDir(dataDir: string): Promise<void> {
  for (const [dir, mode] of [
    [dataDir, 0o711],
    [path.join(dataDir, "state"), 0o700],
    [path.join(dataDir, "mnt"), 0o711],
  ] as const) {
    await mkdir(dir, { recursive: true });
    await chown(dir, 0, 0);
    await chmod(dir, mode);
  }
}

/**
 * Read-only views of public host configuration every box shares: the CA certificates (never the rest of
 * /etc/ssl: /etc/ssl/private holds the host's keys) and the alternatives links into /usr.
 */
export const sharedFromHost = ["ssl/certs", "alternatives"];

const copiedFromHost = [
  "bash.bashrc",
  "debian_version",
  "environment",
  "ethertypes",
  "gai.conf",
  "host.conf",
  "inputrc",
  "issue",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "localtime",
  "login.defs",
  "magic",
  "magic.mime",
  "manpath.config",
  "mime.types",
  "networks",
  "nsswitch.conf",
  "os-release",
  "profile",
  "profile.d",
  "protocols",
  "rpc",
  "services",
  "shells",
  "skel",
  "terminfo",
  "timezone",
  "ssl/openssl.cnf",
];

/**
 * Fills a new, empty disk (mounted at paths.disk) and hands it to the box's host user: fillDisk, then handDisk.
 * Runs before the box ever started, so nothing on it is the box's doing.
 */
export async function makeDisk(paths: BoxPaths, hostname: string, uid: number): Promise<void> {
  await fillDisk(paths.disk);
  await handDisk(paths, hostname, uid);
}

/**
 * What every new disk holds, all root's until handDisk: its own /etc (copied host files and generated
 * passwd/group/shadow), a home seeded from /etc/skel, /var, /opt, /tmp. Nothing in it names a box, so a pooled disk
 * (disk-pool.ts) is filled ahead of the box it will be.
 */
export async function fillDisk(disk: string): Promise<void> {
  // The folders, then the copies side by side: one after another they were the slowest part of create_box
  // (about 200 ms of small file system calls, each waiting on the last).
  const folders = [...diskMounts.map(([dir]) => dir), "var/tmp", "var/log", "var/cache", "var/lib", "etc/ssl/certs"];
  await Promise.all(folders.map((dir) => mkdir(path.join(disk, dir), { recursive: true })));
  const etc = path.join(disk, "etc");
  await Promise.all([
    ...copiedFromHost.map(async (name) => {
      const source = path.join("/etc", name);
      if (!(await exists(source))) return;
      await cp(source, path.join(etc, name), { recursive: true, verbatimSymlinks: true, dereference: false }).catch(() => {});
    }),
    writeEtc(etc),
    (async () => {
      if (await exists("/etc/skel"))
        await cp("/etc/skel", path.join(disk, "home"), { recursive: true, verbatimSymlinks: true }).catch(() => {});
    })(),
  ]);
  await rm(path.join(disk, "lost+found"), { recursive: true, force: true });
}

/**
 * A filled disk becomes the box's: its hostname and machine id, every file its host user's, its run folder. No box
 * has touched the disk yet, so host root may walk it: in this process (a few dozen entries), not with a chown
 * program, whose start costs more than the walk.
 */
export async function handDisk(paths: BoxPaths, hostname: string, uid: number): Promise<void> {
  await writeOwnEtc(path.join(paths.disk, "etc"), hostname);
  await handTree(paths.disk, uid);
  await chmod(paths.disk, 0o700);
  await chmod(path.join(paths.disk, "var/tmp"), 0o1777);
  await chmod(path.join(paths.disk, "root"), 0o700);
  await prepareRun(paths, uid);
}

/**
 * A disk handed to its uid ahead (a box started by the warm pool, before any box was chosen, its machine id written
 * then) gets the box's name: the two files that hold it, rewritten in place (their owner stays the box's uid). Only
 * the pooled sandbox's idle pid 1 ever ran there, so host root may write into it.
 */
export async function nameDisk(disk: string, hostname: string): Promise<void> {
  const named = ownEtcFiles(hostname).filter(([name]) => name !== "machine-id");
  await Promise.all(named.map(([name, content]) => writeFile(path.join(disk, "etc", name), content)));
}

/**
 * lchown of a folder and everything below it: a symbolic link is changed itself, never what it points to, and the walk
 * enters real folders only (readdir's own `recursive` follows links to folders: it would reach host files).
 */
async function handTree(folder: string, uid: number): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true });
  await lchown(folder, uid, uid);
  await Promise.all(
    entries.map((entry) => {
      const target = path.join(folder, entry.name);
      return entry.isDirectory() ? handTree(target, uid) : lchown(target, uid, uid);
    }),
  );
}

/**
 * A disk copied from another box (fork_box) or a snapshot becomes this box's, before the box ever starts: each
 * mounted folder a real folder again (the old box may have left a symbolic link where the host writes or
 * bubblewrap binds), its own hostname and machine id, and every file handed to this box's host user (the
 * old box's files were all its own uid's: its user namespace maps nothing else).
 */
export async function adoptDisk(paths: BoxPaths, hostname: string, uid: number): Promise<void> {
  for (const [dir] of diskMounts) {
    const folder = path.join(paths.disk, dir);
    const info = await lstat(folder).catch(() => null);
    if (info?.isDirectory()) continue;
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder);
  }
  const etc = path.join(paths.disk, "etc");
  for (const [name, content, mode] of ownEtcFiles(hostname)) {
    await rm(path.join(etc, name), { recursive: true, force: true });
    // wx: created here, never through a link.
    await writeFile(path.join(etc, name), content, { mode, flag: "wx" });
  }
  await run("chown", ["-hR", `${uid}:${uid}`, paths.disk]);
  await chmod(paths.disk, 0o700);
  await prepareRun(paths, uid);
}

/**
 * Before every start: an empty /tmp and the host-only run folder. The driver has killed every process left in the
 * box's groups before (LocalDriver.start), yet the old /tmp is never walked as host root: it is renamed aside and
 * removed as the box's uid (box-tree-removal.ts), so a process that survived anyway cannot steer the removal
 * onto host files through a swapped symbolic link.
 */
export async function prepareRun(paths: BoxPaths, uid: number): Promise<void> {
  const old = await moveAside(paths.tmp);
  await mkdir(paths.tmp);
  await chown(paths.tmp, uid, uid);
  await chmod(paths.tmp, 0o1777);
  for (const aside of [...(old ? [old] : []), ...(await movedAside(paths.disk)).filter((dir) => dir !== old)])
    await removeAsBoxUser(aside, uid);
  await mkdir(paths.jobs, { recursive: true });
  await chmod(paths.state, 0o700);
}

async function writeEtc(etc: string): Promise<void> {
  const files: [string, string, number][] = [
    ["passwd", "root:x:0:0:root:/data/home:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n", 0o644],
    ["group", "root:x:0:\ntty:x:5:\nusers:x:100:\nnogroup:x:65534:\n", 0o644],
    ["shadow", "root:*:20000:0:99999:7:::\nnobody:*:20000:0:99999:7:::\n", 0o640],
    ["gshadow", "root:*::\nnogroup:*::\n", 0o640],
    ["resolv.conf", "# This box has no network beyond its own loopback.\n", 0o644],
  ];
  await writeFiles(etc, files);
}

async function writeOwnEtc(etc: string, hostname: string): Promise<void> {
  await writeFiles(etc, ownEtcFiles(hostname));
}

async function writeFiles(etc: string, files: [string, string, number][]): Promise<void> {
  await Promise.all(
    files.map(async ([name, content, mode]) => {
      await rm(path.join(etc, name), { force: true });
      await writeFile(path.join(etc, name), content, { mode });
    }),
  );
}

/** The files of /etc that are each box's own: its name and its machine id. */
function ownEtcFiles(hostname: string): [string, string, number][] {
  return [
    ["hostname", `${hostname}\n`, 0o644],
    ["hosts", `127.0.0.1\tlocalhost\n127.0.1.1\t${hostname}\n::1\tlocalhost ip6-localhost ip6-loopback\n`, 0o644],
    ["machine-id", `${randomBytes(16).toString("hex")}\n`, 0o444],
  ];
}

/** The host's top-level directories that are symlinks into /usr on merged-/usr systems (bin → usr/bin). */
export async function usrLinks(): Promise<{ name: string; target: string | null }[]> {
  const links: { name: string; target: string | null }[] = [];
  for (const name of ["bin", "sbin", "lib", "lib32", "lib64", "libx32"]) {
    const info = await lstat(`/${name}`).catch(() => null);
    if (info?.isSymbolicLink()) links.push({ name, target: await readlink(`/${name}`) });
    else if (info?.isDirectory()) links.push({ name, target: null });
  }
  return links;
}

export async function hostOsVersion(): Promise<string> {
  const text = await readFile("/etc/os-release", "utf8").catch(() => "");
  const field = (name: string) => new RegExp(`^${name}="?([^"\\n]*)"?$`, "m").exec(text)?.[1];
  return [field("ID") ?? "linux", field("VERSION_ID")].filter(Boolean).join("-");
}

export async function exists(target: string): Promise<boolean> {
  try {
    await lstat(target);
    return true;
  } catch {
    return false;
  }
}
