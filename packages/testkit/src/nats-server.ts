/**
 * A nats-server of a test's own on a free loopback port, for tests that stop, kill or restart it (the shared
 * server on 4222 must keep serving the other test files). `restart` starts it again on the same port, as an
 * operator restarting NATS would. Every server a test file starts is killed when the process exits.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

export const natsServerBin = process.env.NATS_SERVER_BIN || "/usr/sbin/nats-server";
export const natsServerPresent = existsSync(natsServerBin);

export interface TestNatsServer {
  port: number;
  url: string;
  process: ChildProcess;
  /** Kills it (SIGKILL unless told) and waits until it is gone. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port with the same arguments. */
  restart(): Promise<void>;
}

const started: ChildProcess[] = [];
process.once("exit", () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => (socket.destroy(), resolve(false)));
    socket.connect(port, "127.0.0.1");
  });
}

/** Starts nats-server with `args` on `port` (a free one unless given) and waits until it accepts connections. */
export async function startNatsServer(options: { port?: number; args?: string[] } = {}): Promise<TestNatsServer> {
  const port = options.port ?? (await freePort());
  const args = ["-a", "127.0.0.1", "-p", String(port), ...(options.args ?? [])];
  const launch = async (): Promise<ChildProcess> => {
    const child = spawn(natsServerBin, args, { stdio: ["ignore", "ignore", "pipe"] });
    started.push(child);
    // the last of what it said, for the error when it does not start (e.g. a port taken since it was found free)
    let said = "";
    child.stderr!.on("data", (chunk: Buffer) => (said = (said + chunk.toString()).slice(-600)));
    const until = Date.now() + 15_000;
    while (!(await portAccepts(port))) {
      if (Date.now() > until || child.exitCode !== null) {
        child.kill("SIGKILL");
        throw new Error(`nats-server on ${port} did not start: ${said.trim().split("\n").slice(-2).join(" | ") || "(nothing said)"}`);
      }
      await sleep(25);
    }
    return child;
  };
  const server: TestNatsServer = {
    port,
    url: `nats://127.0.0.1:${port}`,
    process: await launch(),
    async kill(signal = "SIGKILL") {
      const child = server.process;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once("exit", resolve));
      child.kill(signal);
      await gone;
    },
    async restart() {
      await server.kill();
      server.process = await launch();
    },
  };
  return server;
}
