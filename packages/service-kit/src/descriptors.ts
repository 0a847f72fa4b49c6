/**
 * A process's file descriptors against its soft limit (RLIMIT_NOFILE), read from /proc. A service out of
 * descriptors cannot accept, spawn or open anything — a flood of idle connections once did that to the boxes
 * service, and the health route itself died with it — so health reports the use, readiness fails from 90 %
 * (a load balancer stops sending new work while the process still answers), and the start raises the limit.
 * Node raises the soft limit to the hard one itself; only a privileged process (CAP_SYS_RESOURCE) may raise the
 * hard limit, which the start tries through util-linux's prlimit and otherwise names in a warning. It asks for
 * 65,536, not the kernel's most: what a process spawns inherits its limit (a box's commands among them), and the
 * connection caps keep a service far below it.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import type { Logger } from "./logger.js";

export interface DescriptorUse {
  /** Open now (null: not known on this system). */
  open: number | null;
  /** The soft limit (null: unlimited or not known). */
  limit: number | null;
}

/** From this share of the limit on, readiness fails. */
const descriptorReadyShare = 0.9;
/** What the start asks for, and the least it does not warn about. */
const wantedDescriptors = 65_536;

let lastLimit: number | null = null;

export function descriptorUse(): DescriptorUse {
  lastLimit = softLimit() ?? lastLimit;
  try {
    // the listing holds one descriptor of its own while it reads
    return { open: readdirSync("/proc/self/fd").length - 1, limit: lastLimit };
  } catch (error) {
    // out of descriptors: the listing itself cannot open one
    const code = (error as NodeJS.ErrnoException).code;
    return { open: code === "EMFILE" || code === "ENFILE" ? lastLimit : null, limit: lastLimit };
  }
}

/** Why the process should take no new work now (descriptors at or past 90 % of the limit), or null. */
export function descriptorPressure(use: DescriptorUse = descriptorUse()): string | null {
  if (use.open === null || use.limit === null || use.open < use.limit * descriptorReadyShare) return null;
  return `${use.open} of ${use.limit} file descriptors are open`;
}

/**
 * At start: asks for `wanted` descriptors (soft and hard) when the limit is lower; where that is not permitted,
 * warns with how to raise it. Returns the soft limit in force.
 */
export function raiseDescriptorLimit(log: Logger, wanted = wantedDescriptors): number | null {
  const before = softLimit();
  if (before === null || before >= wanted) return before;
  const ceiling = Math.min(wanted, Number(readText("/proc/sys/fs/nr_open")) || wanted);
  try {
    execFileSync("prlimit", ["--pid", String(process.pid), `--nofile=${ceiling}:${ceiling}`], { stdio: "ignore" });
  } catch {
    // not privileged (or no prlimit): the limit stays as given
  }
  const after = softLimit();
  if (after !== null && after > before) log.info({ from: before, to: after }, "raised the file descriptor limit");
  else if (after !== null && after < wanted)
    log.warn(
      { limit: after, wanted },
      "the file descriptor limit is low for a service that takes connections from the network: raise it (ulimit -Hn, systemd LimitNOFILE=, the container runtime's nofile)",
    );
  return after;
}

function softLimit(): number | null {
  const line = readText("/proc/self/limits")
    .split("\n")
    .find((row) => row.startsWith("Max open files"));
  const soft = line?.slice("Max open files".length).trim().split(/\s+/)[0];
  return soft && /^\d+$/.test(soft) ? Number(soft) : null;
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
