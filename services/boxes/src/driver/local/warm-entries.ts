/**
 * Warm entries: for each running box, one helper (native/bancada-enter.c --warm) started ahead of the box's next
 * command. Most of what entering a box costs is not the namespaces but joining the box's cgroups: each write to a
 * cgroup.procs file waits for an RCU grace period in the kernel (7–18 ms measured here, more than a whole
 * `bash -lc true`). A warm entry pays that between commands: it has joined the box's limit groups, opened the box's
 * namespaces and checked its pid 1, and waits on a pipe only this service holds. The next command is written into
 * that pipe, and the entry starts it straight into the command's own cgroup v2 group (clone3, no migration); after
 * each command another entry is started for the box.
 *
 * A waiting entry holds its command's group open by file descriptor only (no process is in it yet), so the idle
 * sweep of empty command groups (cgroups.sweepCommandGroups) must spare it: `held` names the groups of every entry
 * not yet finished; a removed group would fail the entry's clone3 ("fork: No such file or directory").
 *
 * What the box can do to one: nothing. It is a host process outside the box's pid namespace (the box cannot see or
 * signal it) and its pipe is the service's; it checks the box's pid 1 again when its command comes, so a box that
 * was stopped or restarted meanwhile is refused, and it dies with the service (parent-death signal). The only trace
 * in the box is one process counted in its pids limit and a few pages in its memory group while it waits.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { Readable, Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import * as cgroups from "./cgroups.js";
import { warmLaunch, warmRequest, type LaunchOptions } from "./command.js";
import { sendSignal } from "./procfs.js";
import { spawnCommand } from "./run-command.js";
import type { LocalRuntime } from "./sandbox.js";

/** A started helper that waits for its command; `group` is the command's own group in the freeze/kill hierarchy. */
export interface WarmEntry {
  child: ChildProcess;
  group: string | undefined;
  /** The box's groups, where `group` is. */
  groups: cgroups.BoxGroups;
  /** Which run of the box it was made for (its pid 1). */
  key: string;
}

export interface EntryCommand {
  cwd: string;
  program: string[];
  env?: Record<string, string>;
}

type Options = (boxId: string, runtime: LocalRuntime, group: string | undefined) => LaunchOptions & { helper: string };

export class WarmEntries {
  readonly #options: Options;
  readonly #ready = new Map<string, WarmEntry>();
  /**
   * Entries on their way (their group being made, the helper started): one command waits for it rather than start
   * another (`claimed`); commands that come at the same time start their own at once.
   */
  readonly #preparing = new Map<string, { done: Promise<void>; claimed: boolean }>();
  /** The command groups of entries started and not yet finished or discarded: never swept. */
  readonly #held = new Set<string>();

  constructor(options: Options) {
    this.#options = options;
  }

  /** The box's warm entry, or a new one (it then pays the cgroup joins now), handed its command. */
  async enter(boxId: string, runtime: LocalRuntime, command: EntryCommand): Promise<WarmEntry> {
    // The box's name as HOSTNAME: an entry started ahead by the warm pool began under a placeholder name.
    const request = warmRequest(command.cwd, command.program, { HOSTNAME: runtime.hostname, ...command.env });
    const pending = this.#preparing.get(boxId);
    if (pending && !pending.claimed) {
      pending.claimed = true;
      await pending.done;
    }
    const entry = this.#take(boxId, runtime) ?? (await this.#start(boxId, runtime));
    entry.child.ref();
    for (const stream of entry.child.stdio) (stream as { ref?: () => void } | null)?.ref?.();
    const input = entry.child.stdio[4] as Writable;
    input.on("error", () => {});
    input.end(request);
    return entry;
  }

  /** Starts the box's next entry in the background, unless it has one (or one is on its way). */
  prepare(boxId: string, runtime: LocalRuntime): void {
    if (this.#ready.has(boxId) || this.#preparing.has(boxId)) return;
    const done = this.#start(boxId, runtime)
      .then((entry) => {
        // Idle, it must not keep the service's event loop alive.
        entry.child.unref();
        for (const stream of entry.child.stdio) (stream as { unref?: () => void } | null)?.unref?.();
        const stale = this.#ready.get(boxId);
        this.#ready.set(boxId, entry);
        if (stale) void this.#discard(stale);
        // Ended while it waited (its box stopped, say): forgotten, with its group. A taken entry is the caller's.
        // (Looked up by entry, not by box: a warm pool's entry is the box's it became, see rename.)
        entry.child.once("exit", () => {
          const key = [...this.#ready].find(([, ready]) => ready === entry)?.[0];
          if (key === undefined) return;
          this.#ready.delete(key);
          void this.#removeGroup(entry);
        });
      })
      .catch(() => {})
      .finally(() => this.#preparing.delete(boxId));
    this.#preparing.set(boxId, { done, claimed: false });
  }

  /**
   * A box started ahead (the warm pool) became box `to`: its waiting entry, started under the pooled name, is the
   * box's now. The entry joined the same groups and checks the same pid 1 and box-id file; only the box's name is
   * new, which each command's environment carries (enter).
   */
  rename(from: string, to: string, runtime: LocalRuntime): void {
    const entry = this.#ready.get(from);
    const pending = this.#preparing.get(from);
    if (pending && !entry) {
      // still starting: once started it is moved over (the box's first command waits for it, as for its own)
      const done = pending.done.then(() => this.rename(from, to, runtime));
      this.#preparing.set(to, { done, claimed: false });
      void done.finally(() => this.#preparing.get(to)?.done === done && this.#preparing.delete(to));
      return;
    }
    if (!entry || entry.key !== keyOf(runtime)) return;
    this.#ready.delete(from);
    this.#ready.set(to, entry);
  }

  /** The command groups entries hold now (the sweep leaves them alone). */
  held(): ReadonlySet<string> {
    return this.#held;
  }

  /** After an entry's command ended: its group goes, and the box gets its next entry. */
  async finish(boxId: string, runtime: LocalRuntime, entry: WarmEntry): Promise<void> {
    await this.#removeGroup(entry);
    this.prepare(boxId, runtime);
  }

  /** Ends the box's waiting entry (the box stops or goes away). */
  async drop(boxId: string): Promise<void> {
    await this.#preparing.get(boxId)?.done;
    const entry = this.#ready.get(boxId);
    this.#ready.delete(boxId);
    if (entry) await this.#discard(entry);
  }

  /** Ends every waiting entry (the driver closes); their groups are empty (only a command would be in one). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#preparing.values()].map((pending) => pending.done));
    const entries = [...this.#ready.values()];
    this.#ready.clear();
    await Promise.all(entries.map((entry) => this.#discard(entry)));
  }

  #take(boxId: string, runtime: LocalRuntime): WarmEntry | null {
    const entry = this.#ready.get(boxId);
    if (!entry) return null;
    this.#ready.delete(boxId);
    const alive = entry.child.exitCode === null && entry.child.signalCode === null;
    if (alive && entry.key === keyOf(runtime)) return entry;
    void this.#discard(entry);
    return null;
  }

  async #start(boxId: string, runtime: LocalRuntime): Promise<WarmEntry> {
    const group = runtime.groups.tree ? `x-${randomBytes(6).toString("hex")}` : undefined;
    if (group) {
      this.#held.add(group);
      await cgroups.createCommandGroup(runtime.groups, group).catch((error: unknown) => {
        this.#held.delete(group);
        throw error;
      });
    }
    const child = spawnCommand(warmLaunch(this.#options(boxId, runtime, group)), { stdin: true, request: true });
    child.on("error", () => {});
    (child.stdio[3] as Readable).on("error", () => {});
    return { child, group, groups: runtime.groups, key: keyOf(runtime) };
  }

  async #discard(entry: WarmEntry): Promise<void> {
    const done = new Promise<void>((resolve) => {
      if (entry.child.exitCode !== null || entry.child.signalCode !== null) resolve();
      else entry.child.once("exit", () => resolve());
    });
    if (entry.child.pid !== undefined) sendSignal(entry.child.pid, "SIGKILL");
    // A v1 freezer may hold it (its group is the command's, inside a suspended box): its kill then waits for the thaw.
    await Promise.race([done, sleep(2_000)]);
    await this.#removeGroup(entry);
  }

  async #removeGroup(entry: WarmEntry): Promise<void> {
    if (!entry.group) return;
    await cgroups.removeCommandGroup(entry.groups, entry.group).catch(() => {});
    this.#held.delete(entry.group);
  }
}

function keyOf(runtime: LocalRuntime): string {
  return `${runtime.init.pid}:${runtime.init.startTime}`;
}
