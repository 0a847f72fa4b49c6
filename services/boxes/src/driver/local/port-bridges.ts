/**
 * How the service reaches a port inside a box without giving the box any host network: a tiny bridge process
 * per published port, started INTO the box's network namespace only (the rest of it — mounts, files — stays the
 * host's: it runs a host program with a fixed command line), as the box's own unprivileged uid with no new
 * privileges. It accepts on a unix socket in a host folder (unix sockets live in the filesystem, not in network
 * namespaces) and connects each client to 127.0.0.1:<port> in the box: `socat UNIX-LISTEN:…,fork TCP:127.0.0.1:<port>`.
 *
 * The namespace is opened by file descriptor and the box's pid 1 checked again afterwards (pid and start time):
 * a box gone and its pid reused by a host process can never hand the bridge the host's network.
 *
 * socat forks one child per connection, so the bridge joins the box's cgroups (a group `port-<port>` of its own in
 * the freeze/kill tree) before it takes any: its children count against the box's pids and memory limits, not the
 * host's, and die with the box. One bridge per box port, even when the first connections come together (they wait
 * for the same start). The bridges outlive a service killed with -9 (they are detached): a new driver ends those of
 * its folder before it serves (`endLeftovers`), and a box's socket folder goes with its bridges.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, openSync } from "node:fs";
import { chmod, chown, readFile, readdir, readlink, rmdir, stat, unlink, writeFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { makeOwnFolder } from "@bancada/service-kit";
import { DriverError } from "../driver-error.js";
import { createCommandGroup, procsFiles, type BoxGroups } from "./cgroups.js";
import { isAlive, sendSignal, type ProcessRef } from "./procfs.js";

interface Bridge {
  init: ProcessRef;
  child: ChildProcess;
  socket: string;
}

/** What a bridge needs of the box's runtime. */
export interface BridgedBox {
  init: ProcessRef;
  uid: number;
  groups: BoxGroups;
}

export class PortBridges {
  readonly #dir: string;
  readonly #nsenterPath: string;
  /** By `<boxId>:<port>`: the bridge, or its start while it is under way (one start, however many wait for it). */
  readonly #bridges = new Map<string, Promise<Bridge>>();

  constructor(dir: string, nsenterPath: string) {
    this.#dir = dir;
    this.#nsenterPath = nsenterPath;
  }

  async connect(boxId: string, box: BridgedBox, port: number): Promise<Socket> {
    const key = `${boxId}:${port}`;
    for (let attempt = 0; ; attempt++) {
      const seen = this.#bridges.get(key);
      // a bridge of the box's previous run (or one that died) is replaced, once, by whichever connection sees it first
      if (seen && !(await serves(seen, box)) && this.#bridges.get(key) === seen) this.#stop(key);
      const starting = this.#bridges.get(key) ?? this.#begin(key, boxId, box, port);
      const socket = await reach((await starting).socket);
      if (socket) return socket;
      // its socket is gone (the bridge was ended behind our back): a new one, once
      if (attempt > 0) throw new DriverError("start_failed", "the port bridge does not answer");
      if (this.#bridges.get(key) === starting) this.#stop(key);
    }
  }

  /** Ends the bridges of a box (all its ports — and then its socket folder — or one). */
  async close(boxId: string, port?: number): Promise<void> {
    for (const key of [...this.#bridges.keys()])
      if (key === `${boxId}:${port}` || (port === undefined && key.startsWith(`${boxId}:`))) this.#stop(key);
    if (port === undefined) await removeSocketFolder(path.join(this.#dir, boxId));
  }

  closeAll(): void {
    for (const key of [...this.#bridges.keys()]) this.#stop(key);
  }

  /**
   * At start: ends the bridges a previous service on this folder left running (killed with -9, they outlived it)
   * and removes their socket folders. Found by their command line, which names a socket in this folder.
   */
  async endLeftovers(): Promise<number> {
    const marker = `UNIX-LISTEN:${this.#dir}/`;
    let ended = 0;
    for (const name of await readdir("/proc").catch(() => [])) {
      if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
      const args = (await readFile(`/proc/${name}/cmdline`, "utf8").catch(() => "")).split("\0");
      if (args.some((arg) => arg.startsWith(marker)) && sendSignal(Number(name), "SIGKILL")) ended++;
    }
    for (const folder of await readdir(this.#dir).catch(() => [])) await removeSocketFolder(path.join(this.#dir, folder));
    return ended;
  }

  #begin(key: string, boxId: string, box: BridgedBox, port: number): Promise<Bridge> {
    const starting = this.#start(boxId, box, port);
    this.#bridges.set(key, starting);
    starting.catch(() => {
      if (this.#bridges.get(key) === starting) this.#bridges.delete(key);
    });
    return starting;
  }

  #stop(key: string): void {
    const starting = this.#bridges.get(key);
    this.#bridges.delete(key);
    void starting?.then(
      (bridge) => {
        if (bridge.child.pid !== undefined) sendSignal(-bridge.child.pid, "SIGKILL");
        void unlink(bridge.socket).catch(() => {});
      },
      () => {},
    );
  }

  async #start(boxId: string, box: BridgedBox, port: number): Promise<Bridge> {
    const dir = path.join(this.#dir, boxId);
    await makeOwnFolder(this.#dir, 0o711);
    await makeOwnFolder(dir, 0o700);
    await chown(dir, box.uid, box.uid);
    await chmod(dir, 0o700);
    const socket = path.join(dir, `${port}-${randomBytes(4).toString("hex")}.sock`);
    const namespace = openSync(`/proc/${box.init.pid}/ns/net`, "r");
    let child: ChildProcess;
    try {
      const [opened, host] = await Promise.all([readlink(`/proc/self/fd/${namespace}`), readlink("/proc/self/ns/net")]);
      if (!(await isAlive(box.init)) || opened === host) throw new DriverError("gone", "the box's processes are gone");
      const args = [
        "--net=/proc/self/fd/3",
        "--",
        "/usr/bin/setpriv",
        `--reuid=${box.uid}`,
        `--regid=${box.uid}`,
        "--clear-groups",
        "--no-new-privs",
        "--",
        "/usr/bin/socat",
        `UNIX-LISTEN:${socket},fork,mode=0600,unlink-early,backlog=512`,
        `TCP:127.0.0.1:${port}`,
      ];
      child = spawn(this.#nsenterPath, args, { stdio: ["ignore", "ignore", "ignore", namespace], detached: true, env: {} });
      child.on("error", () => {});
    } finally {
      closeSync(namespace);
    }
    try {
      // before its first connection (none can come before the socket exists), so every fork is the box's
      await joinBox(box.groups, `port-${port}`, child.pid);
      await listening(socket, child);
    } catch (error) {
      if (child.pid !== undefined) sendSignal(-child.pid, "SIGKILL");
      throw error;
    }
    return { init: box.init, child, socket };
  }
}

/** The bridge serves this run of the box (same pid 1) and is still there. */
async function serves(starting: Promise<Bridge>, box: BridgedBox): Promise<boolean> {
  const bridge = await starting.catch(() => null);
  if (!bridge || bridge.child.exitCode !== null || bridge.child.signalCode !== null) return false;
  return bridge.init.pid === box.init.pid && bridge.init.startTime === box.init.startTime;
}

/**
 * A connection to the bridge's socket; null when nothing listens there. Refused and busy are tried again for a
 * moment: socat makes the socket file a moment before it listens on it, and a burst can fill its accept queue.
 */
async function reach(socket: string): Promise<Socket | null> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const connection = await new Promise<Socket | NodeJS.ErrnoException>((resolve) => {
      const made = connect(socket, () => {
        made.removeListener("error", resolve);
        resolve(made);
      });
      made.once("error", resolve);
    });
    if (!(connection instanceof Error)) return connection;
    if (connection.code === "ENOENT") return null;
    if (connection.code !== "ECONNREFUSED" && connection.code !== "EAGAIN") throw connection;
    await sleep(10);
  }
  return null;
}

/** Moves the bridge (nsenter, which becomes setpriv and then socat: one process) into the box's groups. */
async function joinBox(groups: BoxGroups, name: string, pid: number | undefined): Promise<void> {
  if (pid === undefined) throw new DriverError("start_failed", "the port bridge could not start");
  await createCommandGroup(groups, name).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
  for (const file of procsFiles(groups, name)) await writeFile(file, String(pid));
}

/**
 * A box's socket folder, entry by entry (unlink never follows a link) and then the folder: nothing in it is
 * walked recursively as root, although the folder belongs to the box's uid.
 */
async function removeSocketFolder(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [])) await unlink(path.join(dir, name)).catch(() => {});
  await rmdir(dir).catch(() => {});
}

/** Resolves once the bridge's socket exists (a few milliseconds); fails if the bridge exits first. */
async function listening(socket: string, child: ChildProcess): Promise<void> {
  for (let waited = 0; waited < 5_000; waited += 10) {
    if (child.exitCode !== null || child.signalCode !== null) throw new DriverError("start_failed", "the port bridge could not start");
    if (
      await stat(socket).then(
        (info) => info.isSocket(),
        () => false,
      )
    )
      return;
    await sleep(10);
  }
  throw new DriverError("start_failed", "the port bridge did not start within 5 s");
}
