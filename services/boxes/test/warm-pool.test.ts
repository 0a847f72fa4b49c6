/**
 * The warm pool of disks (src/driver/local/disk-pool.ts): create_box takes a disk made ahead. Each pooled disk goes to
 * one box, of one account, and never back: another account's box — or the next box after a delete — starts from a
 * fresh one. A pooled disk is root's and out of every box's reach until it is claimed; the pool refills after a
 * claim; what a killed service left in the pool is removed at the next start, and a closing driver removes its own.
 */
import { execFileSync, spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { existsSync, lstatSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, startStack, type Stack } from "@bancada/e2e";
import { createLogger } from "@bancada/service-kit";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createLocalDriver, type LocalDriver } from "../src/index.js";
import { boxesTestStack, cleanupAfterTest, describeBoxes, mountsUnder, type BoxesTestStack } from "./stack.js";
import { allScopes, fails, ok, run, type Box } from "./helpers.js";

const loopDevices = existsSync("/dev/loop-control");

describeBoxes("warm pool of disks", () => {
  let boxes: BoxesTestStack;
  let stack: Stack;
  let alice: Client;
  let bob: Client;

  beforeAll(async () => {
    boxes = boxesTestStack({ warmPool: [{ dataGiB: 20, count: 2 }] });
    stack = await startStack({ services: { boxes: boxes.factory } });
    alice = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes, accountId: "acct-pool-a" }));
    bob = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes, accountId: "acct-pool-b" }));
  });
  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await stack?.stop();
    await boxes?.cleanup();
  });

  const pool = () => (boxes.service().driver as LocalDriver).pool;
  /** The inode of each ready pooled image: a claimed disk keeps its inode (it is renamed, not copied). */
  const pooledImages = () =>
    new Set(
      readdirSync(path.join(boxes.dataDir, "state"))
        .filter((name) => name.startsWith("pool-"))
        .map((name) => statSync(path.join(boxes.dataDir, "state", name, "disk.img")).ino),
    );
  const imageOf = (box: Box) => statSync(path.join(boxes.dataDir, "state", box.id, "disk.img")).ino;

  it("when two accounts create boxes, then each box gets a pooled disk of its own, and one account's files never reach the other's box", async () => {
    if (!loopDevices) return void expect(pool()).toBeNull();
    await pool()!.filled();
    const ready = pooledImages();
    expect(ready.size).toBe(2);

    const first = (await ok(alice, "create_box", { name: "pool-alice" })).box;
    expect(ready.has(imageOf(first))).toBe(true);
    await run(alice, first.id, "echo alice-secret > /data/home/secret; echo alice > /tmp/left; echo alice > /var/tmp/left");
    const second = (await ok(bob, "create_box", { name: "pool-bob" })).box;
    expect(ready.has(imageOf(second))).toBe(true);
    expect(imageOf(second)).not.toBe(imageOf(first));

    const seen = await run(bob, second.id, "hostname; cat /etc/machine-id; id -u; ls -A /data/home /tmp /var/tmp; stat -c %u /data/home");
    expect(seen.stdout).not.toMatch(/secret|left/);
    const [hostname, machineId] = seen.stdout.split("\n");
    expect(hostname).toBe("pool-bob");
    const aliceId = (await run(alice, first.id, "cat /etc/machine-id")).stdout.trim();
    expect(machineId).not.toBe(aliceId);
    // The box's root owns its disk; Bob reaches nothing of Alice's box.
    expect(seen.stdout).toMatch(/^0$/m);
    await fails(bob, "exec", { boxId: first.id, cmd: "cat /data/home/secret" }, "not_found");

    // Refilled in the background, with new disks.
    await pool()!.filled();
    const refilled = pooledImages();
    expect(refilled.size).toBe(2);
    expect(refilled.has(imageOf(first)) || refilled.has(imageOf(second))).toBe(false);
  }, 120_000);

  it("when a box is deleted, then its disk never returns to the pool: the next box of another account starts empty", async () => {
    if (!loopDevices) return;
    const gone = (await ok(alice, "create_box", { name: "pool-gone" })).box;
    await run(alice, gone.id, "echo left-behind > /data/home/note");
    await ok(alice, "delete_box", { boxId: gone.id, confirm: true });
    await pool()!.filled();
    const next = (await ok(bob, "create_box", { name: "pool-next" })).box;
    // An inode number may be reused once the deleted image is gone: what tells a new disk is its content.
    const listing = await run(bob, next.id, "ls -A /data/home; cat /data/home/note 2>&1 || true");
    expect(listing.stdout).not.toContain("left-behind");
    expect(existsSync(path.join(boxes.dataDir, "state", gone.id))).toBe(false);
  }, 120_000);
});

describeBoxes("warm pool of disks at the driver", () => {
  it("when disks wait in the pool, then they are root's and closed to boxes; a killed service's are removed at the next start; a closing driver removes its own", async () => {
    if (!loopDevices) return;
    const dataDir = mkdtempSync(path.join(tmpdir(), "bancada-boxes-pool-"));
    const hostUid = 300_000 + randomInt(0, 100_000) * 100;
    const log = createLogger("pool", "silent");
    // the first service, in a process of its own, fills its pool and is then killed as a crash would
    const first = spawn(
      process.execPath,
      ["--import", "tsx", path.join(import.meta.dirname, "fixtures/pool-process.ts"), dataDir, String(hostUid), "2"],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    cleanupAfterTest(async () => {
      first.kill("SIGKILL");
      for (const point of mountsUnder(dataDir)) execFileSync("umount", ["-l", point]);
      rmSync(dataDir, { recursive: true, force: true });
    });
    await new Promise<void>((resolve, reject) => {
      first.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes('"filled":true') && resolve());
      first.once("exit", (code) => reject(new Error(`the pool process ended (${code}) before its pool was full`)));
    });
    // a second driver of another live process on the same data folder (a replica beside it) leaves its pool alone
    const beside = await createLocalDriver({ dataDir, log, probeUid: hostUid, pool: [] });
    await beside.close();
    expect(poolMounts(dataDir)).toHaveLength(2);
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));
    const pooled = readdirSync(path.join(dataDir, "mnt")).filter((name) => name.startsWith("pool-"));
    expect(pooled).toHaveLength(2);
    for (const name of pooled) {
      const root = statSync(path.join(dataDir, "mnt", name));
      expect([root.uid, root.mode & 0o777]).toEqual([0, 0o700]);
      expect(statSync(path.join(dataDir, "mnt", name, "etc/passwd")).uid).toBe(0);
    }

    // The first process is gone; the next start removes what it pooled.
    const second = await createLocalDriver({ dataDir, log, probeUid: hostUid, pool: [{ dataGiB: 20, count: 1 }] });
    cleanupAfterTest(() => second.close());
    // (The second driver starts filling its own pool at once: only the first one's disks are looked for.)
    expect(poolMounts(dataDir).filter((point) => pooled.includes(path.basename(point)))).toEqual([]);
    expect(readdirSync(path.join(dataDir, "state")).filter((name) => pooled.includes(name))).toEqual([]);
    await second.pool!.filled();
    expect(poolMounts(dataDir)).toHaveLength(1);
    // Handing a disk to its box's user changes links themselves, never what they lead to on the host.
    const host = mkdtempSync(path.join(tmpdir(), "bancada-pool-host-"));
    cleanupAfterTest(() => rmSync(host, { recursive: true, force: true }));
    writeFileSync(path.join(host, "file"), "host's");
    symlinkSync(host, path.join(poolMounts(dataDir)[0]!, "etc", "host-folder"));
    symlinkSync(path.join(host, "file"), path.join(poolMounts(dataDir)[0]!, "etc", "host-file"));

    // The first box takes the pooled disk; the second, made while the pool is empty, is made the slow way, and works the same.
    const boxes = [0, 1].map((n) => ({ id: `bx_pool${randomInt(0, 1_000_000)}${n}`, runtime: null as unknown }));
    for (const [n, box] of boxes.entries()) {
      cleanupAfterTest(() => second.destroy(box));
      box.runtime = await second.create({ ...box, name: `pool-${n}`, vcpus: 1, memMiB: 512, dataGiB: 20, hostUid: hostUid + n });
      const ran = await second.exec(box, {
        command: { cmd: "hostname; stat -c %u /data/home" },
        cwd: "/",
        env: {},
        timeoutMs: 30_000,
        maxOutputBytes: 1024,
      });
      expect(ran.stdout.toString()).toBe(`pool-${n}\n0\n`);
      if (n === 0) expect(lstatSync(path.join(dataDir, "mnt", box.id, "etc", "host-folder")).uid).toBe(hostUid);
    }
    expect([statSync(host).uid, statSync(path.join(host, "file")).uid]).toEqual([0, 0]);
    await second.pool!.filled();
    await second.close();
    expect(poolMounts(dataDir)).toEqual([]);
    expect(readdirSync(path.join(dataDir, "state")).filter((name) => name.startsWith("pool-"))).toEqual([]);
  }, 120_000);
});

function poolMounts(dataDir: string): string[] {
  return mountsUnder(dataDir).filter((point) => path.basename(point).startsWith("pool-"));
}
