/**
 * How the service reaches a port inside a box without giving the box any host network: a tiny bridge process
 * per published port, started INTO the box's network namespace only (the rest of it — mounts, files — stays the
 * host's: it runs a host program with a fixed command line), as the box's own unprivileged uid with no new
 * privileges. It accepts on a unix socket in a host folder (unix sockets live in the filesystem, not in network
 * namespaces) and connects each client to 127.0.0.1:<port> in the box: `socat UNIX-LISTEN:…,fork TCP:127.0.0.1:<port>`.
 *
 * The namespace is opened by file descriptor and the box's pid 1 checked again afterwards (pid and start time):
 * a box gone and its pid reused by a host process can never hand the bridge the host's network.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, openSync } from "node:fs";
import { chmod, chown, mkdir, readlink, rm, stat } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { DriverError } from "../driver-error.js";
import { isAlive, sendSignal, type ProcessRef } from "./procfs.js";

interface Bridge {
  init: ProcessRef;
  child: ChildProcess;
  socket: string;
  ready: Promise<void>;
}

export class PortBridges {
  readonly #dir: string;
  readonly #nsenterPath: string;
  readonly #bridges = new Map<string, Bridge>();

  constructor(dir: string, nsenterPath: string) {
    this.#dir = dir;
    this.#nsenterPath = nsenterPath;
  }

  async connect(boxId: string, box: { init: ProcessRef; uid: number }, port: number): Promise<Socket> {
    const key = `${boxId}:${port}`;
    let bridge = this.#bridges.get(key);
    const current =
      bridge && bridge.init.pid === box.init.pid && bridge.init.startTime === box.init.startTime && bridge.child.exitCode === null;
    if (bridge && !current) this.#stop(key);
    if (!bridge || !current) {
      bridge = await this.#start(boxId, box, port);
      this.#bridges.set(key, bridge);
    }
    await bridge.ready;
    return connect(bridge.socket);
  }

  /** Ends the bridges of a box (all its ports, or one). */
  close(boxId: string, port?: number): void {
    for (const key of [...this.#bridges.keys()])
      if (key === `${boxId}:${port}` || (port === undefined && key.startsWith(`${boxId}:`))) this.#stop(key);
  }

  closeAll(): void {
    for (const key of [...this.#bridges.keys()]) this.#stop(key);
  }

  #stop(key: string): void {
    const bridge = this.#bridges.get(key);
    this.#bridges.delete(key);
    if (bridge?.child.pid !== undefined) sendSignal(-bridge.child.pid, "SIGKILL");
    if (bridge) void rm(bridge.socket, { force: true });
  }

  async #start(boxId: string, box: { init: ProcessRef; uid: number }, port: number): Promise<Bridge> {
    const dir = path.join(this.#dir, boxId);
    await mkdir(this.#dir, { recursive: true, mode: 0o711 });
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await chown(dir, box.uid, box.uid);
    await chmod(dir, 0o700);
    const socket = path.join(dir, `${port}-${randomBytes(4).toString("hex")}.sock`);
    const namespace = openSync(`/proc/${box.init.pid}/ns/net`, "r");
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
        `UNIX-LISTEN:${socket},fork,mode=0600,unlink-early`,
        `TCP:127.0.0.1:${port}`,
      ];
      const child = spawn(this.#nsenterPath, args, { stdio: ["ignore", "ignore", "ignore", namespace], detached: true, env: {} });
      child.on("error", () => {});
      return { init: box.init, child, socket, ready: listening(socket, child) };
    } finally {
      closeSync(namespace);
    }
  }
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
