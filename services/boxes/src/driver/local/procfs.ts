/**
 * What /proc tells about a process. A pid alone may be reused after a restart, so a process is
 * identified by its pid and its start time (field 22 of /proc/<pid>/stat, in clock ticks since boot).
 */
import { readFile, readdir, readlink } from "node:fs/promises";
import { constants } from "node:os";

export interface ProcessRef {
  pid: number;
  startTime: string;
}

interface StatFields {
  state: string;
  parent: number;
  processGroup: number;
  startTime: string;
}

async function readStat(pid: number): Promise<StatFields | null> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: split after the last ')'.
    const rest = text.slice(text.lastIndexOf(")") + 2).split(" ");
    const state = rest[0];
    const startTime = rest[19];
    return state && startTime ? { state, parent: Number(rest[1]), processGroup: Number(rest[2]), startTime } : null;
  } catch {
    return null;
  }
}

export async function processRef(pid: number): Promise<ProcessRef | null> {
  const stat = await readStat(pid);
  return stat ? { pid, startTime: stat.startTime } : null;
}

/** Alive, and still the same process (not a reused pid); a zombie counts as gone. */
export async function isAlive(ref: ProcessRef): Promise<boolean> {
  const stat = await readStat(ref.pid);
  return stat !== null && stat.startTime === ref.startTime && stat.state !== "Z" && stat.state !== "X";
}

/**
 * Like isAlive, but only a missing process (ENOENT, ESRCH), a reused pid or a zombie is "gone": any other error
 * reading /proc (EMFILE when the service is out of descriptors, EACCES, …) says nothing about the process and is
 * thrown. A box was once marked stopped while its processes ran because such an error read as "gone".
 */
export async function isAliveOrThrow(ref: ProcessRef): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(`/proc/${ref.pid}/stat`, "utf8");
  } catch (error) {
    if (isNoSuchProcess(error)) return false;
    throw error;
  }
  const rest = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return rest[19] === ref.startTime && rest[0] !== "Z" && rest[0] !== "X";
}

function isNoSuchProcess(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ESRCH";
}

/** True when the process is stopped by a signal (state T). */
export async function isStopped(pid: number): Promise<boolean> {
  return (await readStat(pid))?.state === "T";
}

export async function pidNamespace(pid: number): Promise<string | null> {
  try {
    return await readlink(`/proc/${pid}/ns/pid`);
  } catch {
    return null;
  }
}

/** Every host pid whose pid namespace is `namespace` (how a box is found without cgroups). */
async function pidsInNamespace(namespace: string): Promise<number[]> {
  const entries = await readdir("/proc");
  const pids = entries.filter((name) => /^\d+$/.test(name)).map(Number);
  const matches = await Promise.all(pids.map(async (pid) => ((await pidNamespace(pid)) === namespace ? pid : null)));
  return matches.filter((pid): pid is number => pid !== null);
}

export function signalName(signal: number): string {
  const entry = Object.entries(constants.signals).find(([, value]) => value === signal);
  return entry ? entry[0] : `SIG${signal}`;
}

export function sendSignal(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

export async function childPids(pid: number): Promise<number[]> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, "utf8").catch(() => "");
  return text.split(" ").filter(Boolean).map(Number);
}

/** Every process whose process group is `group` (how a job is found without cgroups). */
export async function pidsInProcessGroup(group: number): Promise<number[]> {
  const pids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name)).map(Number);
  const matches = await Promise.all(pids.map(async (pid) => ((await readStat(pid))?.processGroup === group ? pid : null)));
  return matches.filter((pid): pid is number => pid !== null);
}

/** Without a freezer: stops every process of a pid namespace, again until no new one appears. */
export async function stopNamespace(namespace: string): Promise<void> {
  for (let round = 0; round < 20; round++) {
    const pids = await pidsInNamespace(namespace);
    const running = await Promise.all(pids.map(async (pid) => ((await isStopped(pid)) ? null : pid)));
    const left = running.filter((pid): pid is number => pid !== null);
    if (left.length === 0) return;
    for (const pid of left) sendSignal(pid, "SIGSTOP");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Continues every process of a pid namespace, and the host-side nsenter of each command: nsenter stops
 * itself when its child stops (to pass a terminal stop on) and waits for a SIGCONT that a signal to the box
 * alone never sends. Left stopped, it would never reap its child, and the box's namespace could never end.
 */
export async function continueNamespace(namespace: string): Promise<void> {
  for (const pid of await pidsInNamespace(namespace)) {
    sendSignal(pid, "SIGCONT");
    const parent = (await readStat(pid))?.parent;
    if (parent && parent > 1 && (await readStat(parent))?.state === "T" && (await pidNamespace(parent)) !== namespace)
      sendSignal(parent, "SIGCONT");
  }
}
