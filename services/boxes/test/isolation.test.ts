/**
 * Escape attempts from inside real bubblewrap boxes, through the gateway: the host's files, paths that
 * climb out of /data/home, symlinks to /, another box's files and processes, the host's loopback
 * services, the read-only /usr, capabilities, the service's environment, fork bombs and runaways.
 */
import { randomInt } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLogger } from "@bancada/service-kit";
import { createLocalDriver } from "../src/index.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, startStack, type Stack } from "@bancada/e2e";
import { boxesTestStack, cleanupAfterTest, type BoxesTestStack, describeBoxes } from "./stack.js";
import { allScopes, fails, ok, run, until, type Box } from "./helpers.js";

describeBoxes("box isolation", () => {
  let boxes: BoxesTestStack;
  let stack: Stack;
  let client: Client;
  let box: Box;
  let neighbour: Box;

  beforeAll(async () => {
    boxes = boxesTestStack();
    stack = await startStack({ services: { boxes: boxes.factory } });
    client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes }));
    [box, neighbour] = await Promise.all([
      ok(client, "create_box", { name: "inmate" }).then((r) => r.box),
      ok(client, "create_box", { name: "neighbour" }).then((r) => r.box),
    ]);
    await run(client, neighbour.id, "echo secret-of-neighbour > /data/home/neighbour-secret.txt; echo tmp > /tmp/neighbour-tmp");
    await ok(client, "start_job", { boxId: neighbour.id, cmd: "exec -a neighbour-daemon sleep 1000" });
  });
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
    await boxes?.cleanup();
  });

  it("when a box reads /etc/shadow, then it sees its own generated file, never the host's", async () => {
    const host = readFileSync("/etc/shadow", "utf8");
    const result = await run(client, box.id, "cat /etc/shadow; cat /etc/hostname; ls /");
    expect(result.stdout).toContain("root:*:");
    expect(result.stdout).not.toContain(host.split("\n")[0]!);
    expect(result.stdout).toContain("inmate");
    const file = await ok<{ content: string }>(client, "read_file", { boxId: box.id, path: "/etc/shadow" });
    expect(file.content).not.toBe(host);
    expect(file.content.startsWith("root:*:")).toBe(true);
  });

  it("when a path climbs out of /data/home with ../.., then it stops at the box's own root", async () => {
    const climbed = await ok<{ content: string; path: string }>(client, "read_file", {
      boxId: box.id,
      path: "../../../../../../etc/shadow",
    });
    expect(climbed.content.startsWith("root:*:")).toBe(true);
    const listing = await run(client, box.id, "ls /data/home/../../../../../ ; cat ../../../../../proc/1/cmdline | tr '\\0' ' '", {
      cwd: "/data/home",
    });
    expect(listing.stdout).not.toMatch(/\bworkspace\b|\bwork\b|\bboot\b|\bsrv\b/);
    expect(listing.stdout).toContain("while :; do sleep infinity");
    // The box's pid 1 is its own init, and its root is the box's root: /proc gives no way out either.
    const viaProc = await ok<{ content: string }>(client, "read_file", { boxId: box.id, path: "/proc/1/root/etc/hostname" });
    expect(viaProc.content).toBe("inmate\n");
  });

  it("when a symlink points to /, then following it stays inside the box for exec, read_file and write_file", async () => {
    await run(client, box.id, "ln -sfn / /data/home/root-link && ln -sfn /etc/shadow /data/home/shadow-link");
    const viaLink = await ok<{ content: string }>(client, "read_file", { boxId: box.id, path: "root-link/etc/shadow" });
    expect(viaLink.content.startsWith("root:*:")).toBe(true);
    expect((await ok<{ content: string }>(client, "read_file", { boxId: box.id, path: "shadow-link" })).content.startsWith("root:*:")).toBe(
      true,
    );
    await ok(client, "write_file", { boxId: box.id, path: "root-link/tmp/through-link.txt", content: "inside" });
    expect((await run(client, box.id, "cat /tmp/through-link.txt")).stdout).toBe("inside");
    const error = await fails(client, "write_file", { boxId: box.id, path: "root-link/usr/bin/evil", content: "x" }, "failed_precondition");
    expect(error.message).toMatch(/Read-only file system/);
  });

  it("when a box looks for another box's files and processes, then it finds neither", async () => {
    const result = await run(
      client,
      box.id,
      "grep -rs secret-of-neighbour /data /tmp /etc /var /opt /root /run | head -3; ls -a /tmp /data; ps -eo pid,cmd",
    );
    expect(result.stdout).not.toContain("secret-of-neighbour");
    expect(result.stdout).not.toContain("neighbour-tmp");
    expect(result.stdout).not.toContain("neighbour-daemon");
    const own = await run(client, neighbour.id, "ps -eo cmd");
    expect(own.stdout).toContain("neighbour-daemon");
    const pids = (await run(client, box.id, "ls /proc | grep -E '^[0-9]+$' | wc -l")).stdout.trim();
    expect(Number(pids)).toBeLessThan(12);
  });

  it("when a box connects to 127.0.0.1:5432 (Postgres) or :4222 (NATS) of the host, then the connection is refused", async () => {
    const result = await run(
      client,
      box.id,
      "for p in 5432 4222; do (exec 3<>/dev/tcp/127.0.0.1/$p && echo open-$p) 2>/dev/null || echo refused-$p; done; cat /proc/net/dev | grep -c ':'",
    );
    expect(result.stdout).toContain("refused-5432");
    expect(result.stdout).toContain("refused-4222");
    expect(result.stdout).not.toContain("open-");
    expect(result.stdout.trim().split("\n").at(-1)).toBe("1");
  });

  it("when root in the box tries to remount /usr writable, gain capabilities or make a user namespace, then it is refused", async () => {
    const result = await run(
      client,
      box.id,
      "grep CapEff /proc/self/status; mount -o remount,rw,bind /usr 2>&1; touch /usr/evil 2>&1; unshare -U true 2>&1; echo done",
    );
    expect(result.stdout).toContain("CapEff:\t0000000000000000");
    expect(result.stdout).toMatch(/permission denied/i);
    expect(result.stdout).toMatch(/Read-only file system/);
    expect(result.stdout).toMatch(/unshare failed/);
  });

  it("when a box lists its environment, then nothing of the service's environment is there", async () => {
    const result = await run(client, box.id, "env", { env: { MINE: "yes" } });
    expect(result.stdout).toContain("MINE=yes");
    expect(result.stdout).toContain("HOME=/data/home");
    expect(result.stdout).not.toMatch(/DATABASE_URL|NATS_URL|VITEST|npm_/);
  });

  it("when a fork bomb runs, then the box's process limit holds it, the deadline kills it and the box works afterwards", async () => {
    const started = Date.now();
    const bomb = await run(client, box.id, "bomb() { bomb | bomb & }; bomb; sleep 30", { timeoutSeconds: 3 });
    expect(bomb.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(25_000);
    // The limit held: the kernel counted refused forks in the box's pids cgroup (seen from the host).
    const events = pidsEvents(await boxes.service().db.box.findUniqueOrThrow({ where: { id: box.id } }));
    if (box.enforcement.processes) expect(events).toBeGreaterThan(0);
    const after = await run(client, box.id, "ps -e --no-headers | wc -l");
    expect(Number(after.stdout.trim())).toBeLessThan(8);
  });

  it("when a runaway process spins past its deadline, then its whole tree, daemons included, is killed at the deadline", async () => {
    const result = await run(
      client,
      box.id,
      "setsid sleep 1000 & (yes > /dev/null &) ; nohup sleep 999 >/dev/null 2>&1 & while :; do :; done",
      { timeoutSeconds: 1 },
    );
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: "SIGKILL" });
    expect(result.durationMs).toBeGreaterThanOrEqual(1000);
    expect(result.durationMs).toBeLessThan(8_000);
    const left = await run(client, box.id, "ps -eo cmd --no-headers");
    expect(left.stdout).not.toMatch(/sleep 1000|sleep 999|yes/);
  });
});

describeBoxes("local driver without cgroups (signals only) and without disk images", () => {
  it("when no cgroup is usable, then suspend stops every process with SIGSTOP, resume continues them, and deadlines still kill the tree", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "bancada-boxes-signals-"));
    const hostUid = 300_000 + randomInt(0, 100_000) * 100;
    cleanupAfterTest(() => rmSync(dataDir, { recursive: true, force: true }));
    const driver = await createLocalDriver({
      dataDir,
      log: createLogger("signals", "silent"),
      cgroups: "none",
      disks: "directory",
      // The chain of programs (machines without a C compiler), so that this path is proven too.
      enter: "chain",
      probeUid: hostUid,
    });
    const box = { id: "bx_signals", runtime: null as unknown };
    cleanupAfterTest(async () => {
      await driver.destroy(box);
      await driver.close();
    });
    expect(driver.enforcement({ vcpus: 2, memMiB: 4096, dataGiB: 20 })).toMatchObject({
      cpu: null,
      memory: null,
      disk: null,
      processes: null,
      freeze: expect.stringContaining("SIGSTOP"),
    });
    box.runtime = await driver.create({ ...box, name: "signals", vcpus: 2, memMiB: 4096, dataGiB: 20, hostUid });
    const exec = (cmd: string, timeoutMs = 30_000) =>
      driver.exec(box, { command: { cmd }, cwd: "/data/home", env: {}, timeoutMs, maxOutputBytes: 65_536 });
    const job = await driver.startJob(box, {
      jobId: "job_counter",
      command: { cmd: "i=0; while :; do i=$((i+1)); echo $i > count; sleep 0.1; done" },
      cwd: "/data/home",
      env: {},
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await driver.suspend(box);
    expect(await driver.inspect(box)).toBe("frozen");
    const frozen = readFileSync(path.join(dataDir, "mnt/bx_signals/home/count"), "utf8");
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(readFileSync(path.join(dataDir, "mnt/bx_signals/home/count"), "utf8")).toBe(frozen);
    await driver.resume(box);
    expect(await driver.inspect(box)).toBe("running");
    // Polled, not read once: `echo > count` empties the file before it writes, and on a busy host disk that write
    // can wait hundreds of ms (the counter sits in disk sleep), so one read may find the file empty.
    const counted = async () => Number(readFileSync(path.join(dataDir, "mnt/bx_signals/home/count"), "utf8"));
    expect(await until(counted, (count) => count > Number(frozen), 10_000)).toBeGreaterThan(Number(frozen));
    const runaway = await exec("sleep 300 & while :; do :; done", 1_000);
    expect(runaway).toMatchObject({ timedOut: true, signal: "SIGKILL" });
    expect((await exec("ps -eo args --no-headers")).stdout.toString()).not.toContain("sleep 300");
    expect(await driver.probeJob(box, "job_counter", job)).toEqual({ state: "running" });
  }, 60_000);
});

describeBoxes("the one-exec way into a box (bancada-enter)", () => {
  it("when a command runs, then it holds no capability, no host group and no_new_privs; a pid that is not the box's is refused before anything runs", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "bancada-boxes-enter-"));
    const hostUid = 300_000 + randomInt(0, 100_000) * 100;
    cleanupAfterTest(() => rmSync(dataDir, { recursive: true, force: true }));
    const driver = await createLocalDriver({ dataDir, log: createLogger("enter", "silent"), disks: "directory", probeUid: hostUid });
    const box = { id: "bx_enter", runtime: null as unknown };
    cleanupAfterTest(async () => {
      await driver.destroy(box);
      await driver.close();
    });
    box.runtime = await driver.create({ ...box, name: "enter", vcpus: 2, memMiB: 4096, dataGiB: 20, hostUid });
    const exec = (handle: typeof box, cmd: string) =>
      driver.exec(handle, {
        command: { cmd },
        cwd: "/data/home",
        env: { LD_PRELOAD: "/data/home/x.so" },
        timeoutMs: 30_000,
        maxOutputBytes: 65_536,
      });
    const seen = (
      await exec(box, "grep -E '^(Cap|Groups|NoNewPrivs|Uid)' /proc/self/status; cat /proc/self/uid_map; echo $LD_PRELOAD")
    ).stdout.toString();
    for (const field of ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"]) expect(seen).toMatch(new RegExp(`${field}:\\s+0{16}`));
    expect(seen).toMatch(/NoNewPrivs:\s+1/);
    expect(seen).toMatch(/Groups:\s*\n/);
    expect(seen).toMatch(new RegExp(`^\\s+0\\s+${hostUid}\\s+1$`, "m"));
    // The caller's variables reach the command only (never the privileged helper as it is loaded).
    expect(seen.trim().split("\n").at(-1)).toBe("/data/home/x.so");
    const runtime = box.runtime as { init: { pid: number; startTime: string } };
    const marker = path.join(dataDir, "ran-on-host");
    // A reused pid (another start time), and a host process's own pid and start time: refused, nothing runs.
    for (const init of [
      { ...runtime.init, startTime: "1" },
      { pid: process.pid, startTime: readFileSync(`/proc/${process.pid}/stat`, "utf8").split(") ")[1]!.split(" ")[19]! },
    ]) {
      await expect(exec({ ...box, runtime: { ...runtime, init } }, `touch ${marker}`)).rejects.toThrow();
      expect(existsSync(marker)).toBe(false);
    }
  }, 60_000);
});

/** How many forks the box's pids cgroup refused (pids.events "max"), or 0 without a pids controller. */
function pidsEvents(row: { runtime: unknown }): number {
  const groups = (row.runtime as { groups: { tree: { path: string } | null; limits: { path: string }[] } }).groups;
  for (const group of [...(groups.tree ? [groups.tree] : []), ...groups.limits]) {
    const file = path.join(group.path, "pids.events");
    if (existsSync(file)) return Number(/max (\d+)/.exec(readFileSync(file, "utf8"))?.[1] ?? 0);
  }
  return 0;
}
