/**
 * `kill <pnpm's pid>`: pnpm dies of the signal without passing it on, and `bancada start` is handed to init. It
 * must stop then as it would on the signal itself, not keep serving a port the next start wants.
 */
import { spawn } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { embeddedServerAnswers } from "@bancada/embedded-db";
import { bin } from "./start-bancada.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "bancada-parent-"));
  await chmod(dir, 0o711);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

it(
  "when the process that launched bancada start is killed without passing the signal on, then bancada stops within seconds and its port is free",
  { timeout: 240_000 },
  async () => {
    // a stand-in for pnpm: starts bancada, prints its pid and the ready line, and passes no signal on
    const launcher = `
    const { spawn } = require("node:child_process");
    const child = spawn(process.execPath, [${JSON.stringify(bin)}, "start"], { stdio: ["ignore", "pipe", "pipe"] });
    console.log("child " + child.pid);
    child.stdout.pipe(process.stdout);
    child.stderr.pipe(process.stderr);
  `;
    // the embedded mode a newcomer runs (with DATABASE_URL the production shape would want its secrets)
    const { NATS_URL: _nats, DATABASE_URL: _db, ...rest } = process.env;
    const env = {
      ...rest,
      BANCADA_DATA_DIR: path.join(dir, "data"),

      PORT: "0",
      LOG_LEVEL: "warn",
    };
    const parent = spawn(process.execPath, ["-e", launcher], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    parent.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    parent.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const deadline = Date.now() + 200_000;
    while (!out.includes("Press Ctrl-C to stop.")) {
      if (Date.now() > deadline || parent.exitCode !== null)
        await sleep(200).then(() => {
          throw new Error(`not ready: ${out}`);
        });
      await sleep(100);
    }
    const pid = Number(/child (\d+)/.exec(out)![1]);
    const url = /MCP endpoint: (\S+)/.exec(out)![1]!;
    try {
      parent.kill("SIGKILL");
      const killedAt = Date.now();
      while (alive(pid) && Date.now() - killedAt < 20_000) await sleep(100);
      expect(alive(pid)).toBe(false);
      // the port is free again: nothing answers there
      await expect(fetch(new URL("/healthz", url))).rejects.toThrow();
      // and it stopped what it started: the embedded PostgreSQL
      expect(await embeddedServerAnswers(env.BANCADA_DATA_DIR)).toBe(false);
    } finally {
      if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  },
);
