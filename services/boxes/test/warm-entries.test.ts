/**
 * Warm entries (src/driver/local/warm-entries.ts): the helper that waits, already in a box's cgroups, for the box's
 * next command. The box cannot see or signal it; it outlives a suspend and resume; it goes with a stopped box and a
 * restarted box gets a new one; one whose box went away meanwhile refuses its command.
 */
import { spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLogger } from "@bancada/service-kit";
import { expect, it } from "vitest";
import { createLocalDriver, type LocalDriver } from "../src/index.js";
import type { BoxHandle } from "../src/driver/box-driver.js";
import { buildEnterHelper } from "../src/driver/local/enter-helper.js";
import { cleanupAfterTest, describeBoxes } from "./stack.js";

describeBoxes("warm entries", () => {
  it("when a box's warm entry waits, then the box cannot see or signal it, it outlives a suspend, and it goes with the box", async () => {
    const { driver, box, exec } = await localBox("warm");
    await exec("true");
    const [entry] = await waitForEntries(box.id, 1);
    // Seen from inside (through the SSH way in, which leaves the entry waiting): no process of the box is it, and
    // its host pid names nothing the box may signal.
    const inside = await shell(driver, box, `cat /proc/[0-9]*/cmdline | tr '\\0' ' '; kill -9 ${entry} 2>&1 || echo refused`);
    expect(inside).not.toContain("--warm");
    expect(inside).toContain("refused");
    expect(warmEntries(box.id)).toEqual([entry]);

    await driver.suspend(box);
    await driver.resume(box);
    expect(warmEntries(box.id)).toEqual([entry]);
    expect((await exec("cat /run/bancada/box-id")).stdout.toString().trim()).toBe(box.id);

    // Stopped, the box leaves no entry; started again (a new pid 1), its commands enter the new run.
    await waitForEntries(box.id, 1);
    await driver.stop(box);
    expect(await waitForEntries(box.id, 0)).toEqual([]);
    box.runtime = await driver.start({ ...box, name: "warm", vcpus: 2, memMiB: 4096, dataGiB: 20, hostUid: box.hostUid });
    const again = await exec("cat /run/bancada/box-id; echo $$");
    expect(again.exitCode).toBe(0);
    expect(again.stdout.toString().split("\n")[0]).toBe(box.id);
  }, 90_000);

  it("when 8 commands come at once, then each gets an entry of its own: its own environment, output and exit code", async () => {
    const { driver, box } = await localBox("many");
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        driver.exec(box, {
          command: { cmd: 'echo "$N"; exit "$N"' },
          cwd: "/data/home",
          env: { N: String(index) },
          timeoutMs: 30_000,
          maxOutputBytes: 1024,
        }),
      ),
    );
    expect(results.map((result) => [result.stdout.toString().trim(), result.exitCode])).toEqual(
      Array.from({ length: 8 }, (_, index) => [String(index), index]),
    );
    expect(await waitForEntries(box.id, 1)).toHaveLength(1);
  }, 60_000);

  it("when the idle sweep runs after a warm entry waited past its cut-off, then the next exec, read_file and write_file still run", async () => {
    const { driver, box, exec } = await localBox("idle");
    await exec("true");
    await waitForEntries(box.id, 1);
    // The sweep removes command groups older than 60 s: the waiting entry's group is made to look that old.
    const tree = (box.runtime as { groups: { tree: { path: string } | null } }).groups.tree;
    const past = new Date(Date.now() - 120_000);
    if (tree)
      for (const entry of readdirSync(tree.path, { withFileTypes: true }))
        if (entry.isDirectory()) utimesSync(path.join(tree.path, entry.name), past, past);
    await driver.sweep(box);
    const after = await exec("echo still-here");
    expect(after.stderr.toString()).toBe("");
    expect(after.stdout.toString()).toBe("still-here\n");
    await waitForEntries(box.id, 1);
    if (tree)
      for (const entry of readdirSync(tree.path, { withFileTypes: true }))
        if (entry.isDirectory()) utimesSync(path.join(tree.path, entry.name), past, past);
    await driver.sweep(box);
    await driver.writeFile(box, { path: "/data/home/idle.txt", data: Buffer.from("idle"), mode: 0o644, parents: false });
    expect(await driver.readFile(box, "/data/home/idle.txt", 1024)).toEqual({ kind: "file", data: Buffer.from("idle") });
  }, 60_000);

  it("when a warm entry's box stops before its command comes, then the entry ends by itself and runs nothing", async () => {
    const { driver, box } = await localBox("stale");
    const helper = (await buildEnterHelper()).path;
    expect(helper).not.toBeNull();
    const runtime = box.runtime as { init: { pid: number; startTime: string } };
    const entry = spawn(helper!, ["--warm", String(runtime.init.pid), runtime.init.startTime, box.id, ""], {
      stdio: ["ignore", "pipe", "pipe", "pipe", "pipe"],
      env: { PATH: "/usr/bin:/bin" },
    });
    let stderr = "";
    let started = false;
    entry.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    entry.stdio[3]!.on("data", () => (started = true));
    const exited = new Promise<number | null>((resolve) => entry.on("exit", (exit) => resolve(exit)));
    await driver.stop(box);
    // It watches the box's pid 1: gone, the entry ends without being handed anything (it holds the box's files open).
    expect(await exited).toBe(125);
    entry.stdio[4]!.on("error", () => {});
    (entry.stdio[4] as NodeJS.WritableStream).end(["/", "0", "/bin/sh", "-c", "echo ran"].map((field) => `${field}\0`).join(""));
    expect(stderr).toContain("the box is not running");
    expect(started).toBe(false);
  }, 60_000);
});

async function localBox(name: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bancada-boxes-warm-"));
  const hostUid = 300_000 + randomInt(0, 100_000) * 100;
  cleanupAfterTest(() => rmSync(dataDir, { recursive: true, force: true }));
  const driver = await createLocalDriver({ dataDir, log: createLogger("warm", "silent"), disks: "directory", probeUid: hostUid });
  const box = { id: `bx_warm${randomInt(0, 1_000_000)}`, runtime: null as unknown, hostUid };
  cleanupAfterTest(async () => {
    await driver.destroy(box);
    await driver.close();
  });
  box.runtime = await driver.create({ ...box, name, vcpus: 2, memMiB: 4096, dataGiB: 20, hostUid });
  const exec = (cmd: string) =>
    driver.exec(box, { command: { cmd }, cwd: "/data/home", env: {}, timeoutMs: 30_000, maxOutputBytes: 65_536 });
  return { driver, box, exec };
}

/** A command's output through the driver's shell (an SSH session's way in, not a warm entry). */
async function shell(driver: LocalDriver, box: BoxHandle, command: string): Promise<string> {
  const session = await driver.openShell(box, { command, terminal: null, env: {} });
  let output = "";
  session.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  session.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  session.stdin.end();
  await session.exited;
  return output;
}

/** Host pids of the helpers waiting for a command of this box. */
function warmEntries(boxId: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
    } catch {
      continue;
    }
    const warm = args.indexOf("--warm");
    if (warm > 0 && args[warm + 3] === boxId) pids.push(Number(name));
  }
  return pids;
}

async function waitForEntries(boxId: string, count: number): Promise<number[]> {
  const until = Date.now() + 10_000;
  while (warmEntries(boxId).length !== count && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  return warmEntries(boxId);
}
