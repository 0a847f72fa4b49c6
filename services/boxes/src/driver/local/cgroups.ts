/**
 * A box's cgroups: one group per hierarchy, plus one child group per command in the freeze/kill
 * hierarchy ("tree"), so that a command's whole process tree can be killed at its deadline even when
 * it forked daemons or called setsid, and so that suspend freezes every process of the box at once.
 * The group paths are stored with the box (runtime), so a restarted service finds them again.
 */
import { mkdir, readFile, readdir, rmdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { CgroupSupport, Controller } from "./cgroup-detect.js";
import { sendSignal } from "./procfs.js";

interface Group {
  version: 1 | 2;
  path: string;
}

/** Stored with the box: where its groups are. */
export interface BoxGroups {
  tree: Group | null;
  /** Groups joined for limits, when they are not the tree group itself. */
  limits: Group[];
}

export interface BoxLimits {
  pidsMax: number;
  memBytes: number;
  vcpus: number;
}

const cpuPeriodUs = 100_000;

/** Where a box's groups are (whether or not they exist): a box whose runtime was lost still has them here. */
export function boxGroupsOf(support: CgroupSupport, boxId: string): BoxGroups {
  const tree = support.tree ? { version: support.tree.version, path: path.join(support.tree.base, boxId) } : null;
  const limits = new Map<string, Group>();
  for (const hierarchy of Object.values(support.limits)) {
    const group = { version: hierarchy.version, path: path.join(hierarchy.base, boxId) };
    if (group.path !== tree?.path) limits.set(group.path, group);
  }
  return { tree, limits: [...limits.values()] };
}

export async function createBoxGroups(support: CgroupSupport, boxId: string, limits: BoxLimits): Promise<BoxGroups> {
  const tree = support.tree ? { version: support.tree.version, path: path.join(support.tree.base, boxId) } : null;
  if (tree) await mkdir(tree.path, { recursive: true });
  const joined = new Map<string, Group>();
  for (const [controller, hierarchy] of Object.entries(support.limits) as [Controller, { version: 1 | 2; base: string }][]) {
    const group = { version: hierarchy.version, path: path.join(hierarchy.base, boxId) };
    await mkdir(group.path, { recursive: true });
    await applyLimit(group, controller, limits);
    if (group.path !== tree?.path) joined.set(group.path, group);
  }
  return { tree, limits: [...joined.values()] };
}

/**
 * A started box's limits set again: a box started ahead (the warm pool, disk-pool.ts) gets the limits of the box it
 * becomes when it is bound to it. Its groups are named by the pooled disk, not the box (`name`).
 */
export async function setBoxLimits(support: CgroupSupport, name: string, limits: BoxLimits): Promise<void> {
  for (const [controller, hierarchy] of Object.entries(support.limits) as [Controller, { version: 1 | 2; base: string }][])
    await applyLimit({ version: hierarchy.version, path: path.join(hierarchy.base, name) }, controller, limits);
}

async function applyLimit(group: Group, controller: Controller, limits: BoxLimits): Promise<void> {
  const file = (name: string) => path.join(group.path, name);
  if (controller === "pids") await writeFile(file("pids.max"), String(limits.pidsMax));
  if (controller === "memory" && group.version === 1) {
    // Swap would let a box go past its memory; absent or unsupported on machines without swap accounting. The
    // kernel keeps memsw at or above the limit: set first when a limit rises (a warm box bound), after when it falls.
    await writeFile(file("memory.memsw.limit_in_bytes"), String(limits.memBytes)).catch(() => {});
    await writeFile(file("memory.limit_in_bytes"), String(limits.memBytes));
    await writeFile(file("memory.memsw.limit_in_bytes"), String(limits.memBytes)).catch(() => {});
  }
  if (controller === "memory" && group.version === 2) {
    await writeFile(file("memory.max"), String(limits.memBytes));
    await writeFile(file("memory.swap.max"), "0").catch(() => {});
  }
  const quota = limits.vcpus * cpuPeriodUs;
  if (controller === "cpu" && group.version === 1) {
    await writeFile(file("cpu.cfs_period_us"), String(cpuPeriodUs));
    await writeFile(file("cpu.cfs_quota_us"), String(quota));
  }
  if (controller === "cpu" && group.version === 2) await writeFile(file("cpu.max"), `${quota} ${cpuPeriodUs}`);
}

/** The `cgroup.procs` files a new process of the box writes its pid into; `command` adds its own tree group. */
export function procsFiles(groups: BoxGroups, command?: string): string[] {
  const files = groups.limits.map((group) => path.join(group.path, "cgroup.procs"));
  if (groups.tree) files.push(path.join(groups.tree.path, ...(command ? [command] : []), "cgroup.procs"));
  return files;
}

export async function createCommandGroup(groups: BoxGroups, command: string): Promise<void> {
  if (groups.tree) await mkdir(path.join(groups.tree.path, command));
}

/**
 * Kills every process of one command (all of them: forks, daemons, setsid'd children) except `spare`:
 * the host-side nsenter, which must outlive its child to reap it. Killed first, nsenter would leave
 * its child to the HOST's init (the reaper of nsenter's pid namespace), a zombie the box cannot reap.
 */
export async function killCommandGroup(groups: BoxGroups, command: string, spare: number): Promise<void> {
  const tree = groups.tree;
  if (!tree) return;
  const group: BoxGroups = { tree: { version: tree.version, path: path.join(tree.path, command) }, limits: [] };
  const targets = async () => (await groupPids(group.tree!.path)).filter((pid) => pid !== spare);
  // The common case, a command that left nothing behind: no freezing needed.
  if ((await targets()).length === 0) return;
  // Inside a suspended box the kills stay pending until resume: one pass, no thaw.
  if (await isFrozen(group).catch(() => false)) {
    for (const pid of await targets()) sendSignal(pid, "SIGKILL");
    return;
  }
  // Frozen while we list and kill, so that a fork bomb cannot outrun us; repeated until nothing is left.
  for (let round = 0; round < 20; round++) {
    await freeze(group, true, 1_000).catch(() => {});
    const pids = await targets();
    for (const pid of pids) sendSignal(pid, "SIGKILL");
    await freeze(group, false, 1_000).catch(() => {});
    if (pids.length === 0) return;
    await sleep(10);
  }
}

/** Removes a command's group once it is empty; a group still holding processes stays for a later sweep. */
export async function removeCommandGroup(groups: BoxGroups, command: string): Promise<void> {
  if (groups.tree) await rmdir(path.join(groups.tree.path, command)).catch(() => {});
}

/**
 * Removes command groups left behind (their processes took long to die); recent ones may be about to be joined, and
 * `spare` names groups still in use though empty (a warm entry's, which it starts its command into).
 */
export async function sweepCommandGroups(groups: BoxGroups, spare: ReadonlySet<string> = new Set(), olderThanMs = 60_000): Promise<void> {
  if (!groups.tree) return;
  const children = (await childGroups(groups.tree.path)).filter((child) => !spare.has(path.basename(child)));
  const cutoff = Date.now() - olderThanMs;
  await Promise.all(
    children
      .map(async (child) => ((await stat(child)).mtimeMs < cutoff ? rmdir(child) : undefined))
      .map((removal) => removal.catch(() => {})),
  );
}

export async function freeze(groups: BoxGroups, frozen: boolean, timeoutMs = 10_000): Promise<void> {
  const tree = groups.tree;
  if (!tree) throw new Error("no freezer");
  if (tree.version === 2) await writeFile(path.join(tree.path, "cgroup.freeze"), frozen ? "1" : "0");
  else await writeFile(path.join(tree.path, "freezer.state"), frozen ? "FROZEN" : "THAWED");
  const until = Date.now() + timeoutMs;
  while ((await isFrozen(groups)) !== frozen) {
    if (Date.now() > until) throw new Error(`the box's processes did not ${frozen ? "freeze" : "thaw"} within ${timeoutMs} ms`);
    await sleep(5);
  }
}

export async function isFrozen(groups: BoxGroups): Promise<boolean> {
  const tree = groups.tree;
  if (!tree) return false;
  if (tree.version === 2) return /^frozen 1$/m.test(await readFile(path.join(tree.path, "cgroup.events"), "utf8"));
  return (await readFile(path.join(tree.path, "freezer.state"), "utf8")).trim() === "FROZEN";
}

/**
 * How many of the box's processes the kernel's out-of-memory killer has ended so far: the `oom_kill` count of its
 * memory group (v2 `memory.events`, v1 `memory.oom_control`), or null where memory is not limited by a group.
 */
export async function oomKillCount(groups: BoxGroups): Promise<number | null> {
  for (const group of [...groups.limits, ...(groups.tree ? [groups.tree] : [])]) {
    const text = await readFile(path.join(group.path, group.version === 2 ? "memory.events" : "memory.oom_control"), "utf8").catch(
      () => "",
    );
    const match = /^oom_kill (\d+)$/m.exec(text);
    if (match) return Number(match[1]);
  }
  return null;
}

/**
 * Kills every process left in a box's groups (frozen ones too) and waits until they are all gone; throws when some
 * remain after `timeoutMs` or a group cannot be read (EMFILE, …): only an empty group means the box is stopped.
 */
export async function emptyBox(groups: BoxGroups, timeoutMs = 5_000): Promise<void> {
  const all = [...(groups.tree ? [groups.tree] : []), ...groups.limits];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = (await Promise.all(all.map((group) => pidsOrThrow(group.path)))).flat();
    if (left.length === 0) return;
    if (Date.now() > until) throw new Error(`${left.length} of the box's processes outlived SIGKILL for ${timeoutMs} ms`);
    if (groups.tree?.version === 2) await writeFile(path.join(groups.tree.path, "cgroup.kill"), "1").catch(ignoreMissing);
    for (const pid of left) sendSignal(pid, "SIGKILL");
    // A frozen task does not die: thawed after the kill (v1; v2's cgroup.kill needs no thaw).
    if (groups.tree?.version === 1) await writeFile(path.join(groups.tree.path, "freezer.state"), "THAWED").catch(ignoreMissing);
    await sleep(10);
  }
}

/**
 * Kills the commands a previous process of the service left in a box (exec, read_file, write_file, transfers,
 * warm entries: every command group but the jobs', which outlive the service on purpose) and removes their groups.
 */
export async function endLeftoverCommands(groups: BoxGroups): Promise<number> {
  if (!groups.tree) return 0;
  let ended = 0;
  for (const child of await childGroups(groups.tree.path)) {
    const name = path.basename(child);
    if (name.startsWith("j-")) continue;
    const left = await groupPids(child);
    ended += left.length;
    if (left.length > 0) await killCommandGroup(groups, name, -1);
    await removeCommandGroup(groups, name);
  }
  return ended;
}

/** Pids in a group and its children; a missing group is empty, any other error reading it is thrown. */
async function pidsOrThrow(dir: string): Promise<number[]> {
  let own: string;
  try {
    own = await readFile(path.join(dir, "cgroup.procs"), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const pids = own.split("\n").filter(Boolean).map(Number);
  let children: string[];
  try {
    children = (await readdir(dir, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(dir, entry.name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return pids;
    throw error;
  }
  for (const child of children) pids.push(...(await pidsOrThrow(child)));
  return pids;
}

export async function killBox(groups: BoxGroups): Promise<void> {
  if (groups.tree) await killGroup(groups.tree);
  for (const group of groups.limits) await killListed(group.path);
}

/** Removes every group of the box (after killBox); retries while the last processes are reaped. */
export async function removeBoxGroups(groups: BoxGroups): Promise<void> {
  for (const group of [...(groups.tree ? [groups.tree] : []), ...groups.limits]) {
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        for (const child of await childGroups(group.path)) await rmdir(child).catch(() => {});
        await rmdir(group.path);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") break;
        await killListed(group.path);
        await sleep(20);
      }
    }
  }
}

/** Removes the empty `bancada-boxes` parents; one still holding boxes stays (rmdir refuses). */
export async function removeBases(support: CgroupSupport): Promise<void> {
  const bases = new Set([support.tree?.base, ...Object.values(support.limits).map((hierarchy) => hierarchy.base)]);
  for (const base of bases) if (base) await rmdir(base).catch(() => {});
}

async function killGroup(group: Group): Promise<void> {
  if (group.version === 2) {
    await writeFile(path.join(group.path, "cgroup.kill"), "1").catch(ignoreMissing);
    await waitEmpty(group.path);
    return;
  }
  // v1 has no cgroup.kill: freeze so that nothing forks while we kill, kill everyone, thaw to let them die.
  const state = path.join(group.path, "freezer.state");
  const wasFrozen = (await readFile(state, "utf8").catch(() => "")).trim() === "FROZEN";
  await writeFile(state, "FROZEN").catch(ignoreMissing);
  await killListed(group.path);
  if (!wasFrozen) await writeFile(state, "THAWED").catch(ignoreMissing);
  if (!wasFrozen) await waitEmpty(group.path);
}

async function killListed(dir: string): Promise<void> {
  for (const pid of await groupPids(dir)) sendSignal(pid, "SIGKILL");
}

async function waitEmpty(dir: string, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while ((await groupPids(dir)).length > 0 && Date.now() < until) {
    await killListed(dir);
    await sleep(10);
  }
}

/** Pids in a group and all of its children. */
export async function groupPids(dir: string): Promise<number[]> {
  const own = await readFile(path.join(dir, "cgroup.procs"), "utf8").catch(() => "");
  const pids = own.split("\n").filter(Boolean).map(Number);
  for (const child of await childGroups(dir)) pids.push(...(await groupPids(child)));
  return pids;
}

async function childGroups(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isDirectory()).map((entry) => path.join(dir, entry.name));
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
}
