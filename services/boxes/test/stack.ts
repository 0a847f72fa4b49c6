/**
 * The boxes service as the test stack starts it: its own temporary disk root, a small pids limit (128, so a
 * fork bomb is over quickly), a quick watch interval, a uid range of its own (test files run side by side,
 * each with its own database and so its own uid sequence) and a roomy host capacity: the tests declare
 * boxes far larger than this machine (16 vCPUs, 32 GiB, 500 GiB disks) that stay idle; host admission has its own
 * tests, which lower the capacity (or the disk overcommit) instead. Boxes outlive a stopped service (that is the
 * point), so every test file calls `cleanup()` in afterAll: it kills every box process and removes the
 * cgroups and the directory, also after a failure; on a crash of the test process, an exit hook kills
 * the boxes' processes. What one test makes for itself (a driver, a second stack) is handed to `cleanupAfterTest`
 * as it is made: an afterEach hook undoes it even when the test failed or hit its timeout (a `finally` in the test
 * body never runs when vitest gives up on a test that timed out, and a box outlives its test file).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomInt } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, startStack, type ServiceFactory, type Stack } from "@bancada/e2e";
import { createBoxesService, createLocalDriver, type BoxesService, type BoxesServiceOptions } from "../src/index.js";
import { createLogger } from "@bancada/service-kit";
import { afterEach, describe, it } from "vitest";
import { allScopes, ok, type Box } from "./helpers.js";

/** Why real boxes cannot run on this machine (no bubblewrap, no nsenter, no namespaces), or null. */
export const boxesUnsupported = whyBoxesCannotRun();

/** A describe block that needs real boxes: where they cannot run, one skipped test says why. */
export function describeBoxes(name: string, body: () => void): void {
  if (boxesUnsupported) describe(name, () => it.skip(`is not tested: ${boxesUnsupported}`, () => {}));
  else describe(name, body);
}

function whyBoxesCannotRun(): string | null {
  if (!existsSync("/usr/bin/bwrap")) return "bubblewrap is not installed (apt-get install bubblewrap)";
  if (!existsSync("/usr/bin/nsenter")) return "nsenter is not installed (apt-get install util-linux)";
  try {
    execFileSync("/usr/bin/bwrap", ["--unshare-all", "--ro-bind", "/", "/", "true"], { stdio: "pipe" });
    return null;
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? "").trim();
    return `bubblewrap cannot make namespaces here (${stderr || (error as Error).message})`;
  }
}

export interface BoxesTestStack {
  factory: ServiceFactory;
  dataDir: string;
  /** The service running now (changes after a restart). */
  service(): BoxesService;
  cleanup(): Promise<void>;
}

export function boxesTestStack(options: Partial<BoxesServiceOptions> = {}): BoxesTestStack {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bancada-boxes-test-"));
  const uidBase = options.uidBase ?? 200_000 + randomInt(0, 100_000) * 1_000;
  let current: BoxesService | undefined;
  const onExit = () => killAllSync(dataDir);
  process.once("exit", onExit);
  return {
    dataDir,
    factory: async (deps) => {
      current = await createBoxesService({
        ...deps,
        dataDir,
        pidsMax: 128,
        watchIntervalMs: 500,
        uidBase,
        hostMemoryMiB: 4 * 1024 * 1024,
        hostCores: 1024,
        diskOvercommit: 1000,
        // no SSH endpoint unless a test asks for one (test files run side by side: one fixed port would collide)
        sshPort: null,
        ...options,
      });
      const service = current;
      return { name: "boxes", routes: service.routes, stop: () => service.stop() };
    },
    service: () => {
      if (!current) throw new Error("the boxes service has not started");
      return current;
    },
    async cleanup() {
      process.removeListener("exit", onExit);
      const driver = await createLocalDriver({ dataDir, log: createLogger("test-cleanup", "silent"), probeUid: uidBase });
      for (const box of runtimes(dataDir)) await driver.destroy(box).catch(() => {});
      await driver.close();
      for (const point of mountsUnder(dataDir)) execFileSync("umount", ["-l", point]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const pendingCleanups: (() => Promise<unknown> | unknown)[] = [];

/** Undoes `work` after the current test, whatever its outcome; cleanups run newest first, each one's failure ignored. */
export function cleanupAfterTest(work: () => Promise<unknown> | unknown): void {
  pendingCleanups.push(work);
}

afterEach(async () => {
  for (const work of pendingCleanups.splice(0).reverse())
    await Promise.resolve()
      .then(work)
      .catch(() => {});
});

/** A box service behind a gateway, a key with every box scope, its MCP client and one running box. */
export interface BoxFixture {
  boxes: BoxesTestStack;
  stack: Stack;
  key: string;
  client: Client;
  box: Box;
}

export async function openBoxFixture(boxName: string): Promise<BoxFixture> {
  const boxes = boxesTestStack();
  const stack = await startStack({ services: { boxes: boxes.factory } });
  const key = await stack.createKey({ scopes: allScopes });
  const client = await connectClient(stack.mcpUrl, key);
  const box = (await ok(client, "create_box", { name: boxName })).box;
  return { boxes, stack, key, client, box };
}

export async function closeBoxFixture(fixture: Partial<BoxFixture>): Promise<void> {
  await fixture.client?.close();
  await fixture.stack?.stop();
  await fixture.boxes?.cleanup();
}

/** Every box the driver left under dataDir (its state folders), with its last runtime. */
export function runtimes(dataDir: string): { id: string; runtime: unknown }[] {
  const boxes: { id: string; runtime: unknown }[] = [];
  const ids = new Set(
    [...listing(path.join(dataDir, "state")), ...listing(path.join(dataDir, "mnt"))].filter((id) => id.startsWith("bx_")),
  );
  for (const id of ids) {
    try {
      boxes.push({ id, runtime: JSON.parse(readFileSync(path.join(dataDir, "state", id, "run/runtime.json"), "utf8")) });
    } catch {
      boxes.push({ id, runtime: null });
    }
  }
  return boxes;
}

function listing(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The mounts under dataDir (box disks), deepest first. */
export function mountsUnder(dataDir: string): string[] {
  const points = readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .map((line) => line.split(" ")[4] ?? "");
  return points
    .filter((point) => point.startsWith(`${dataDir}/`))
    .sort()
    .reverse();
}

/** Last resort when the test process exits without afterAll: SIGKILL every box's pid 1 (its namespace dies with it), then unmount its disk. */
function killAllSync(dataDir: string): void {
  for (const box of runtimes(dataDir)) {
    const runtime = box.runtime as { init?: { pid: number }; bwrap?: { pid: number } } | null;
    for (const pid of [runtime?.init?.pid, runtime?.bwrap?.pid]) {
      if (pid) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
  }
  for (const point of mountsUnder(dataDir)) {
    try {
      execFileSync("umount", ["-l", point]);
    } catch {
      // best effort
    }
  }
  try {
    execFileSync("rm", ["-rf", "--one-file-system", dataDir]);
  } catch {
    // best effort
  }
}

/**
 * A fixture run as a service process of its own (`tsx <fixture> <args>`), in a process group of its own so that a
 * test can kill it whole with SIGKILL, as a crash would; the group is killed after the test in any case. Gives back
 * the process and the first line it prints (what it made, as JSON).
 */
export async function startServiceProcess(fixture: string, args: string[]): Promise<{ child: ChildProcess; firstLine: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", fixture, ...args], { stdio: ["ignore", "pipe", "inherit"], detached: true });
  cleanupAfterTest(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    let text = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (text.includes("\n")) resolve(text.slice(0, text.indexOf("\n")));
    });
    child.stdout!.on("end", () => reject(new Error(`the service process ended before answering: ${text}`)));
  });
  return { child, firstLine };
}
