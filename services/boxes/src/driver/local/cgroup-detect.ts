/**
 * Finds which cgroup features this machine offers the service (measured once at start).
 * Groups are made under the service's own cgroup in each hierarchy (`<own>/bancada-boxes/<box>`), so
 * boxes stay inside whatever envelope the service itself runs in.
 *  - freeze/kill ("tree"): cgroup v2 `cgroup.freeze` + `cgroup.kill` (core files, no controller needed),
 *    else the v1 `freezer` hierarchy, else none (the driver falls back to signals).
 *  - limits: pids, memory and cpu from v2 when the controllers can be enabled below us, else v1 mounts.
 */
import { access, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

export type Controller = "pids" | "memory" | "cpu";
const controllers: Controller[] = ["pids", "memory", "cpu"];

interface Hierarchy {
  version: 1 | 2;
  /** Where this service's boxes get their groups: `<mount>/<own path>/bancada-boxes`. */
  base: string;
}

export interface CgroupSupport {
  tree: Hierarchy | null;
  limits: Partial<Record<Controller, Hierarchy>>;
}

const baseName = "bancada-boxes";

export async function detectCgroups(): Promise<CgroupSupport> {
  const mounts = await cgroupMounts();
  const own = await ownPaths();
  const v2Mount = mounts.find((mount) => mount.type === "cgroup2");
  const v2 = v2Mount ? await prepareBase(2, v2Mount, own.get("") ?? "/") : null;
  const tree = v2 && (await hasFiles(v2.base, ["cgroup.freeze", "cgroup.kill"])) ? v2 : await v1Hierarchy(mounts, own, "freezer");
  const limits: CgroupSupport["limits"] = {};
  const v2Controllers = v2 ? await enableV2Controllers(v2.base) : new Set<string>();
  for (const controller of controllers) {
    const hierarchy = v2 && v2Controllers.has(controller) ? v2 : await v1Hierarchy(mounts, own, controller);
    if (hierarchy) limits[controller] = hierarchy;
  }
  return { tree, limits };
}

interface Mount {
  type: "cgroup" | "cgroup2";
  mountPoint: string;
  root: string;
  options: string[];
}

async function cgroupMounts(): Promise<Mount[]> {
  const text = await readFile("/proc/self/mountinfo", "utf8").catch(() => "");
  const mounts: Mount[] = [];
  for (const line of text.split("\n")) {
    const [left, right] = line.split(" - ");
    if (!left || !right) continue;
    const fields = left.split(" ");
    const [type, , superOptions] = right.split(" ");
    if ((type !== "cgroup" && type !== "cgroup2") || !fields[3] || !fields[4]) continue;
    mounts.push({ type, root: fields[3], mountPoint: fields[4], options: (superOptions ?? "").split(",") });
  }
  return mounts;
}

/** The service's own cgroup path per v1 controller, and under "" for v2. */
async function ownPaths(): Promise<Map<string, string>> {
  const text = await readFile("/proc/self/cgroup", "utf8").catch(() => "");
  const paths = new Map<string, string>();
  for (const line of text.split("\n")) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    for (const name of match[1]!.split(",")) paths.set(name, match[2]!);
  }
  return paths;
}

async function v1Hierarchy(mounts: Mount[], own: Map<string, string>, controller: string): Promise<Hierarchy | null> {
  const mount = mounts.find((candidate) => candidate.type === "cgroup" && candidate.options.includes(controller));
  if (!mount) return null;
  return prepareBase(1, mount, own.get(controller) ?? "/");
}

async function prepareBase(version: 1 | 2, mount: Mount, ownPath: string): Promise<Hierarchy | null> {
  const relative = ownPath.startsWith(mount.root) ? ownPath.slice(mount.root.length) : ownPath;
  const base = path.join(mount.mountPoint, relative, baseName);
  try {
    await mkdir(base, { recursive: true });
    await access(path.join(base, "cgroup.procs"));
    return { version, base };
  } catch {
    return null;
  }
}

async function hasFiles(dir: string, names: string[]): Promise<boolean> {
  try {
    await Promise.all(names.map((name) => access(path.join(dir, name))));
    return true;
  } catch {
    return false;
  }
}

/** Enables pids/memory/cpu for our subtree where the kernel lets us; returns the ones enabled. */
async function enableV2Controllers(base: string): Promise<Set<string>> {
  const available = new Set((await readFile(path.join(base, "cgroup.controllers"), "utf8").catch(() => "")).trim().split(/\s+/));
  const enabled = new Set<string>();
  for (const controller of controllers) {
    if (!available.has(controller)) continue;
    try {
      await writeFile(path.join(base, "cgroup.subtree_control"), `+${controller}`);
      enabled.add(controller);
    } catch {
      // The parent's "no internal processes" rule or a missing delegation: leave this limit unenforced.
    }
  }
  return enabled;
}
