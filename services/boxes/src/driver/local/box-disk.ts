/**
 * A local box on disk: `<dataDir>/<boxId>/`
 *   disk/          the box's own files (what a snapshot or fork copies): home → /data/home, etc → /etc,
 *                  var → /var, opt → /opt, root → /root
 *   tmp/           → /tmp, emptied at every fresh start
 *   run/           host-only: runtime.json, bwrap.log, jobs/<jobId>/{log,exit}; never mounted in the box
 * The box's /etc is its own copy, made at creation from a list of harmless host files plus generated
 * passwd/group/shadow/hosts: nothing of the host's secrets (its /etc/shadow, keys, service configs).
 * /etc/ssl and /etc/alternatives are shared read-only from the host (copying their ~700 files made
 * creation slow).
 */
import { randomBytes } from "node:crypto";
import { chmod, cp, lstat, mkdir, readFile, readlink, rm, writeFile } from "node:fs/promises";
import path from "node:path";

export interface BoxPaths {
  root: string;
  disk: string;
  home: string;
  tmp: string;
  run: string;
  jobs: string;
}

export const diskMounts = [
  ["home", "/data/home"],
  ["etc", "/etc"],
  ["var", "/var"],
  ["opt", "/opt"],
  ["root", "/root"],
] as const;

export function boxPaths(dataDir: string, boxId: string): BoxPaths {
  const root = path.join(dataDir, boxId);
  const run = path.join(root, "run");
  return { root, disk: path.join(root, "disk"), home: path.join(root, "disk/home"), tmp: path.join(root, "tmp"), run, jobs: path.join(run, "jobs") };
}

/** Read-only views of host configuration every box shares (CA certificates, the alternatives links). */
export const sharedFromHost = ["ssl", "alternatives"];

const copiedFromHost = [
  "bash.bashrc", "debian_version", "environment", "ethertypes", "gai.conf", "host.conf", "inputrc",
  "issue", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "login.defs", "magic", "magic.mime", "manpath.config",
  "mime.types", "networks", "nsswitch.conf", "os-release", "profile", "profile.d", "protocols", "rpc", "services", "shells",
  "skel", "terminfo", "timezone",
];

/** Makes a new box's disk: its own /etc, an empty home seeded from /etc/skel, /var, /opt, /tmp. */
export async function makeDisk(paths: BoxPaths, hostname: string): Promise<void> {
  for (const [dir] of diskMounts) await mkdir(path.join(paths.disk, dir), { recursive: true });
  for (const dir of ["var/tmp", "var/log", "var/cache", "var/lib"]) await mkdir(path.join(paths.disk, dir), { recursive: true });
  await chmod(path.join(paths.disk, "var/tmp"), 0o1777);
  await chmod(path.join(paths.disk, "root"), 0o700);
  const etc = path.join(paths.disk, "etc");
  for (const name of copiedFromHost) {
    const source = path.join("/etc", name);
    if (!(await exists(source))) continue;
    await cp(source, path.join(etc, name), { recursive: true, verbatimSymlinks: true, dereference: false }).catch(() => {});
  }
  await writeEtc(etc, hostname);
  if (await exists("/etc/skel")) await cp("/etc/skel", paths.home, { recursive: true, verbatimSymlinks: true }).catch(() => {});
  await prepareRun(paths);
}

/** Before every start: an empty /tmp and the host-only run directory. */
export async function prepareRun(paths: BoxPaths): Promise<void> {
  await rm(paths.tmp, { recursive: true, force: true });
  await mkdir(paths.tmp, { recursive: true });
  await chmod(paths.tmp, 0o1777);
  await mkdir(paths.jobs, { recursive: true });
}

export async function removeBoxFiles(paths: BoxPaths): Promise<void> {
  await rm(paths.root, { recursive: true, force: true, maxRetries: 3 });
}

export async function diskExists(paths: BoxPaths): Promise<boolean> {
  return exists(paths.disk);
}

async function writeEtc(etc: string, hostname: string): Promise<void> {
  const files: [string, string, number][] = [
    ["passwd", "root:x:0:0:root:/data/home:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n", 0o644],
    ["group", "root:x:0:\ntty:x:5:\nusers:x:100:\nnogroup:x:65534:\n", 0o644],
    ["shadow", "root:*:20000:0:99999:7:::\nnobody:*:20000:0:99999:7:::\n", 0o640],
    ["gshadow", "root:*::\nnogroup:*::\n", 0o640],
    ["hostname", `${hostname}\n`, 0o644],
    ["hosts", `127.0.0.1\tlocalhost\n127.0.1.1\t${hostname}\n::1\tlocalhost ip6-localhost ip6-loopback\n`, 0o644],
    ["resolv.conf", "# This box has no network beyond its own loopback.\n", 0o644],
    ["machine-id", `${randomBytes(16).toString("hex")}\n`, 0o444],
  ];
  for (const [name, content, mode] of files) {
    await rm(path.join(etc, name), { force: true });
    await writeFile(path.join(etc, name), content, { mode });
  }
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

async function exists(target: string): Promise<boolean> {
  try {
    await lstat(target);
    return true;
  } catch {
    return false;
  }
}
