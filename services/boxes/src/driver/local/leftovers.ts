/**
 * What a box's earlier run, or an earlier process of the service, left behind. A box marked stopped may still have
 * processes (a runtime lost, a false "gone" of an older version): starting a second set beside them, cleaning its
 * /tmp, copying or removing its disk under them must not happen. And an exec whose service was killed (SIGKILL, a
 * crash) has no one left to end it at its deadline: the next process of the service ends it.
 */
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "@bancada/service-kit";
import type { CgroupSupport } from "./cgroup-detect.js";
import * as cgroups from "./cgroups.js";
import { isAliveOrThrow, sendSignal, type ProcessRef } from "./procfs.js";

/**
 * Kills whatever is left of a box's previous run and waits until it is gone; throws when it cannot tell (or it does
 * not die). Its groups are found by the box's id; without cgroups, its last pid 1 (run/runtime.json, checked by
 * start time) is killed, and its pid namespace with it.
 */
export async function endLeftovers(runDir: string, groups: cgroups.BoxGroups): Promise<void> {
  try {
    const init = await lastInit(runDir);
    if (init) {
      for (let round = 0; round < 100 && (await isAliveOrThrow(init)); round++) {
        sendSignal(init.pid, "SIGKILL");
        await sleep(20);
      }
      if (await isAliveOrThrow(init)) throw new Error("the box's previous pid 1 outlived SIGKILL");
    }
    await cgroups.emptyBox(groups);
  } catch (error) {
    throw new Error(`processes of the box's previous run could not be ended: ${(error as Error).message}`, { cause: error });
  }
}

async function lastInit(runDir: string): Promise<ProcessRef | null> {
  const text = await readFile(path.join(runDir, "runtime.json"), "utf8").catch(() => null);
  if (text === null) return null;
  try {
    const init = (JSON.parse(text) as { init?: Partial<ProcessRef> }).init;
    return typeof init?.pid === "number" && typeof init.startTime === "string" ? { pid: init.pid, startTime: init.startTime } : null;
  } catch {
    return null;
  }
}

/**
 * At start: commands a previous process of the service left running in this data folder's boxes are killed (an
 * exec whose caller died with a kill -9 would otherwise run unbounded). Jobs are kept: they outlive the service.
 */
export async function endLeftoverCommands(dataDir: string, support: CgroupSupport, log: Logger): Promise<void> {
  if (!support.tree) return;
  const boxIds = (await readdir(path.join(dataDir, "state")).catch(() => [])).filter((name) => name.startsWith("bx_"));
  for (const boxId of boxIds) {
    // a box made from the warm pool runs in the groups of the pooled sandbox it was until its next start
    const pooled = await pooledName(path.join(dataDir, "state", boxId, "run"));
    for (const name of pooled ? [boxId, pooled] : [boxId]) {
      const ended = await cgroups.endLeftoverCommands(cgroups.boxGroupsOf(support, name)).catch((error: unknown) => {
        log.warn({ err: error, boxId }, "could not end the commands a previous service left in a box");
        return 0;
      });
      if (ended > 0) log.warn({ boxId, processes: ended }, "ended the commands a previous service left running in a box");
    }
  }
}

/** The pooled name a box's last run had (its run/runtime.json), or null: that run was started as the box itself. */
export async function pooledName(runDir: string): Promise<string | null> {
  const text = await readFile(path.join(runDir, "runtime.json"), "utf8").catch(() => null);
  if (text === null) return null;
  try {
    const name = (JSON.parse(text) as { sandboxId?: unknown }).sandboxId;
    // Only names the pool makes: the groups removed below are derived from it.
    return typeof name === "string" && /^pool-[0-9.]+-[0-9a-f]{16}$/.test(name) ? name : null;
  } catch {
    return null;
  }
}
