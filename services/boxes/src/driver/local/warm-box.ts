/**
 * A box started ahead by the warm pool (disk-pool.ts) and the box it becomes. A pooled sandbox is started with a
 * placeholder hostname, a memory limit of the smallest box and its pooled name in its box-id file; binding it gives it
 * the box's name (its UTS namespace, its /etc) and limits, and its runtime records the pooled name (`sandboxId`), by
 * which its groups are found until the box's next start (which makes groups named by the box, as every start does).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { CgroupSupport } from "./cgroup-detect.js";
import * as cgroups from "./cgroups.js";
import { endLeftovers } from "./leftovers.js";

const run = promisify(execFile);

/** The hostname of a pooled sandbox until it is bound. */
export const pooledHostname = "box";

/**
 * A bound box's disk mount moved to the box's mount point, and its hostname set in its UTS namespace, by one program
 * (each program started costs a fork of the service). The mount is moved, never mounted a second time (the running
 * sandbox holds the first); under a shared parent, where a mount cannot move, it is bound at the new place and let go
 * at the old one. A move that reports failure but did move (the new place is a mount point) is taken as done: binding
 * the emptied old place over it would hide the disk. The hostname: host root enters the box's UTS namespace alone (not its user, mount or pid namespace)
 * and writes the kernel's hostname there; nothing of the box runs, nothing it made is read.
 */
export async function moveAndName(
  nsenterPath: string,
  move: { from: string; to: string },
  initPid: number,
  hostname: string,
): Promise<void> {
  const script =
    'mount --move "$1" "$2" 2>/dev/null || mountpoint -q "$2" || { mount --bind "$1" "$2" && umount "$1"; } || exit 1; rmdir "$1"; ' +
    'exec "$4" --target="$3" --uts -- /bin/sh -c \'printf %s "$1" > /proc/sys/kernel/hostname\' sh "$5"';
  await run("/bin/sh", ["-c", script, "bancada-bind", move.from, move.to, String(initPid), nsenterPath, hostname]);
}

/**
 * The limits of a pooled sandbox until it is bound: those of the smallest box create_box makes, so that binding one
 * to a box of that size writes no limit at all.
 */
export const pooledLimits = { memBytes: 4096 * 1024 * 1024, vcpus: 2 };

/** Ends a pooled sandbox's processes (its pid 1 from run/runtime.json, then whatever is in its groups) and removes its groups. */
export async function endPooledSandbox(support: CgroupSupport, name: string, runDir: string): Promise<void> {
  const groups = cgroups.boxGroupsOf(support, name);
  await endLeftovers(runDir, groups);
  await cgroups.removeBoxGroups(groups);
}
