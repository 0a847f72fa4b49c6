/**
 * Box processes a test run left running. The run's global setup points TMPDIR at a folder of its own (the run root),
 * so every box data folder a test makes is under it, and so is every path on the command line of the processes that
 * hold a box: its bubblewrap sandbox (the binds of the box's disk), a job's waiter (its job folder), a published
 * port's socat bridge (its socket). Those, with everything they started (the box's init and what runs in the box),
 * are the run's box processes: no other run's (each has its own root) and nothing else of this machine.
 * At the end of the run whatever is still there is reported, thawed and killed.
 */
import { execFile } from "node:child_process";
import { readFile, readdir, readlink, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export interface LeakedProcess {
  pid: number;
  command: string;
}

interface ProcessInfo {
  pid: number;
  parent: number;
  argv: string[];
}

/** Programs that hold a box (see the top of this file); anything else naming the run root is not a box's. */
function holdsBox(argv: string[]): boolean {
  const program = path.basename(argv[0] ?? "");
  return program === "bwrap" || program === "socat" || argv.includes("bancada-job") || argv.includes("bancada-box");
}

async function processes(): Promise<ProcessInfo[]> {
  const found: ProcessInfo[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const [cmdline, stat] = await Promise.all([
      readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => null),
      readFile(`/proc/${pid}/stat`, "utf8").catch(() => null),
    ]);
    if (cmdline === null || stat === null) continue;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Zombies are gone already: only their parent's wait is missing.
    if (fields[0] === "Z" || fields[0] === "X") continue;
    const argv = cmdline.split("\0");
    if (argv.at(-1) === "") argv.pop();
    found.push({ pid, parent: Number(fields[1]), argv });
  }
  return found;
}

/** The run's box processes alive now: the holders that name `root` on their command line, and all their descendants. */
export async function boxProcessesUnder(root: string): Promise<LeakedProcess[]> {
  const all = await processes();
  const prefix = root.endsWith("/") ? root : `${root}/`;
  const chosen = new Set(
    all.filter((info) => holdsBox(info.argv) && info.argv.some((arg) => arg.includes(prefix))).map((info) => info.pid),
  );
  for (let grew = true; grew;) {
    grew = false;
    for (const info of all)
      if (!chosen.has(info.pid) && chosen.has(info.parent)) {
        chosen.add(info.pid);
        grew = true;
      }
  }
  return all
    .filter((info) => chosen.has(info.pid) && info.pid !== process.pid)
    .map((info) => ({ pid: info.pid, command: info.argv.join(" ").slice(0, 200) }));
}

/**
 * Waits up to `graceMs` for the run's box processes to end (a test's cleanup may still be finishing), then thaws
 * and kills what is left. Answers what was left at the deadline (empty: nothing leaked).
 */
export async function reapBoxProcesses(root: string, graceMs = 5_000): Promise<LeakedProcess[]> {
  const until = Date.now() + graceMs;
  let left = await boxProcessesUnder(root);
  while (left.length > 0 && Date.now() < until) {
    await sleep(200);
    left = await boxProcessesUnder(root);
  }
  for (let round = 0; round < 10; round++) {
    const alive = await boxProcessesUnder(root);
    if (alive.length === 0) break;
    for (const leaked of alive) {
      await thaw(leaked.pid);
      for (const signal of ["SIGCONT", "SIGKILL"] as const) {
        try {
          process.kill(leaked.pid, signal);
        } catch {
          // gone meanwhile
        }
      }
    }
    await sleep(100);
  }
  return left;
}

/** A frozen process cannot die: its freezer group (cgroup v1 freezer.state, v2 cgroup.freeze) is thawed first. */
async function thaw(pid: number): Promise<void> {
  const groups = await readFile(`/proc/${pid}/cgroup`, "utf8").catch(() => "");
  for (const line of groups.split("\n")) {
    const [, controllers, group] = line.split(":");
    if (group === undefined) continue;
    if (controllers === "freezer") await writeFile(path.join("/sys/fs/cgroup/freezer", group, "freezer.state"), "THAWED").catch(() => {});
    if (controllers === "") {
      const unified = (await readlink("/sys/fs/cgroup/unified").catch(() => null)) ?? "/sys/fs/cgroup/unified";
      for (const mount of [unified, "/sys/fs/cgroup"]) await writeFile(path.join(mount, group, "cgroup.freeze"), "0").catch(() => {});
    }
  }
}

/** What a run that leaked says, naming each process. */
export function leakMessage(leaked: LeakedProcess[]): string {
  const lines = leaked.map((item) => `  pid ${item.pid}: ${item.command}`);
  return `${leaked.length} box process(es) of this test run were still running after every test ended (killed now); every test must stop what it starts, also when it fails:\n${lines.join("\n")}`;
}

/**
 * Counts a leak as one failed test file in vitest's JSON report (written before the global teardown runs), so the
 * CI's `N passed, N failed` line, which is read from that report, shows it.
 */
export async function recordLeakInReport(reportFile: string, message: string): Promise<void> {
  const text = await readFile(reportFile, "utf8").catch(() => null);
  if (text === null) return;
  const report = JSON.parse(text) as Record<string, unknown> & { testResults?: unknown[] };
  report.numFailedTestSuites = Number(report.numFailedTestSuites ?? 0) + 1;
  report.numTotalTestSuites = Number(report.numTotalTestSuites ?? 0) + 1;
  report.success = false;
  report.testResults = [
    ...(report.testResults ?? []),
    { name: "global teardown: box processes left running", status: "failed", message, assertionResults: [] },
  ];
  await writeFile(reportFile, JSON.stringify(report));
}

/** Removes the run root: first every mount under it (box disks a test left mounted), deepest first, then the files. */
export async function removeRunRoot(root: string): Promise<void> {
  const prefix = root.endsWith("/") ? root : `${root}/`;
  const mountinfo = await readFile("/proc/self/mountinfo", "utf8").catch(() => "");
  const mounts = mountinfo
    .split("\n")
    .map((line) => line.split(" ")[4]?.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8))))
    .filter((point): point is string => point !== undefined && point.startsWith(prefix))
    .sort((a, b) => b.length - a.length);
  for (const point of mounts) await new Promise((resolve) => execFile("umount", ["-l", point], resolve));
  await rm(root, { recursive: true, force: true, maxRetries: 3 }).catch(() => {});
}
