/**
 * Boxes started ahead (the warm pool with a host uid source, src/driver/local/disk-pool.ts and warm-box.ts): each pooled
 * box runs as a fresh host uid of its own, serves one box of one account and never another — a file or a process one
 * box left is never seen by the next — and the pool refills behind it. A reservation create_box does not use is ended,
 * never offered again; what a killed service pooled is ended at the next start; without a pool every create starts its
 * own sandbox. The box's enforcement says how its disk is copied (reflink, or the sparse copy and why).
 */
import { execFileSync, spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, startStack, type Stack } from "@bancada/e2e";
import { createLogger } from "@bancada/service-kit";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createLocalDriver, type LocalDriver } from "../src/index.js";
import { boxesTestStack, cleanupAfterTest, describeBoxes, mountsUnder, type BoxesTestStack } from "./stack.js";
import { allScopes, fails, ok, run, until, type Box } from "./helpers.js";

const loopDevices = existsSync("/dev/loop-control");
const log = createLogger("warm-boxes", "silent");

describeBoxes("boxes started ahead", () => {
  let boxes: BoxesTestStack;
  let stack: Stack;
  let alice: Client;
  let bob: Client;

  beforeAll(async () => {
    boxes = boxesTestStack({ warmPool: [{ dataGiB: 20, count: 2 }] });
    stack = await startStack({ services: { boxes: boxes.factory } });
    alice = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes, accountId: "acct-warm-a" }));
    bob = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes, accountId: "acct-warm-b" }));
  });
  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await stack?.stop();
    await boxes?.cleanup();
  });

  const driver = () => boxes.service().driver as LocalDriver;
  const row = (box: Box) => boxes.service().db.box.findUniqueOrThrow({ where: { id: box.id } });
  /** The pooled sandbox a box was bound to (its runtime's sandboxId), or undefined: it was started on create. */
  const pooledOf = async (box: Box) => ((await row(box)).runtime as { sandboxId?: string } | null)?.sandboxId;
  /** The pid 1 of every pooled box waiting now, as host pids. */
  const waitingInits = () =>
    readdirSync(path.join(boxes.dataDir, "state"))
      .filter((name) => name.startsWith("pool-"))
      .map(
        (name) =>
          JSON.parse(readFileSync(path.join(boxes.dataDir, "state", name, "run", "runtime.json"), "utf8")) as {
            init: { pid: number };
            uid: number;
          },
      )
      .filter(Boolean);

  it("when two accounts create boxes, then each is a box started ahead with a host uid of its own, and nothing one box left (files, processes) reaches the next", async () => {
    if (!loopDevices) return void expect(driver().pool).toBeNull();
    const pool = driver().pool!;
    expect(pool.startsBoxes).toBe(true);
    await pool.filled();
    const waiting = waitingInits();
    expect(waiting).toHaveLength(2);
    // waiting boxes run as their own uids, none of which is a recorded box's
    expect(new Set(waiting.map((entry) => entry.uid)).size).toBe(2);

    const first = (await ok(alice, "create_box", { name: "warm-alice" })).box;
    expect(await pooledOf(first)).toMatch(/^pool-/);
    const firstUid = (await row(first)).hostUid;
    expect(waiting.map((entry) => entry.uid)).toContain(firstUid);
    // a file in each writable place, and a process that outlives its exec (setsid, detached from the command)
    await run(
      alice,
      first.id,
      "echo alice-secret > /data/home/secret; echo a > /tmp/left; echo a > /var/tmp/left; setsid sleep 4242 > /dev/null 2>&1 < /dev/null &",
    );
    await pool.filled();
    await ok(alice, "delete_box", { boxId: first.id, confirm: true });

    const second = (await ok(bob, "create_box", { name: "warm-bob" })).box;
    expect(await pooledOf(second)).toMatch(/^pool-/);
    expect(await pooledOf(second)).not.toBe(await pooledOf(first));
    const secondUid = (await row(second)).hostUid;
    expect(secondUid).not.toBe(firstUid);
    const seen = await run(bob, second.id, "hostname; echo $HOSTNAME; id -u; ls -A /data/home /tmp /var/tmp; ps -eo args");
    expect(seen.stdout).not.toMatch(/secret|left|sleep 4242/);
    const [hostname, envHostname, uid] = seen.stdout.split("\n");
    expect([hostname, envHostname, uid]).toEqual(["warm-bob", "warm-bob", "0"]);
    expect(readFileSync(path.join(boxes.dataDir, "mnt", second.id, "etc", "hostname"), "utf8")).toBe("warm-bob\n");
    // the machine id is its own too
    const third = (await ok(alice, "create_box", { name: "warm-alice-2" })).box;
    const ids = await Promise.all([run(bob, second.id, "cat /etc/machine-id"), run(alice, third.id, "cat /etc/machine-id")]);
    expect(ids[0].stdout).not.toBe(ids[1].stdout);
    // Alice reaches nothing of Bob's box, by its id
    await fails(alice, "exec", { boxId: second.id, cmd: "true" }, "not_found");

    // refilled in the background with boxes of new uids
    await pool.filled();
    const refilled = waitingInits();
    expect(refilled).toHaveLength(2);
    const bound = [firstUid, secondUid, (await row(third)).hostUid];
    for (const entry of refilled) expect(bound).not.toContain(entry.uid);
    await ok(bob, "delete_box", { boxId: second.id, confirm: true });
    await ok(alice, "delete_box", { boxId: third.id, confirm: true });
  }, 180_000);

  it("when a box started ahead is asked for a bigger memory or more vCPUs, then it gets the box's limits; once its processes end, resume_box starts it as the box itself, its files kept", async () => {
    if (!loopDevices) return;
    const box = (await ok(alice, "create_box", { name: "warm-sized", memMiB: 8192, vcpus: 4 })).box;
    const pooled = await pooledOf(box);
    expect(pooled).toMatch(/^pool-/);
    const groups = ((await row(box)).runtime as { groups: { limits: { path: string }[]; tree: { path: string } | null } }).groups;
    const memory = [...groups.limits, ...(groups.tree ? [groups.tree] : [])].find(
      (group) => existsSync(path.join(group.path, "memory.limit_in_bytes")) || existsSync(path.join(group.path, "memory.max")),
    );
    if (memory) {
      const file = existsSync(path.join(memory.path, "memory.max")) ? "memory.max" : "memory.limit_in_bytes";
      expect(readFileSync(path.join(memory.path, file), "utf8").trim()).toBe(String(8192 * 1024 * 1024));
    }
    await run(alice, box.id, "echo kept > /data/home/kept");
    // its processes end (as a crash of the machine would end them): the box is found stopped, its pooled groups gone
    await driver().stop({ id: box.id, runtime: (await row(box)).runtime });
    if (memory) expect(existsSync(memory.path)).toBe(false);
    await until(
      () => ok(alice, "get_box", { boxId: box.id }),
      (answer) => answer.box.state === "stopped",
      30_000,
    );
    await ok(alice, "resume_box", { boxId: box.id });
    expect(await pooledOf(box)).toBeUndefined();
    const after = await run(alice, box.id, "hostname; cat /data/home/kept");
    expect(after.stdout).toBe("warm-sized\nkept\n");
    await ok(alice, "delete_box", { boxId: box.id, confirm: true });
  }, 180_000);

  it("when a create repeats an idempotency key, then the box it reserved for the repeat is ended and removed, never offered again", async () => {
    if (!loopDevices) return;
    const pool = driver().pool!;
    await pool.filled();
    const before = new Set(readdirSync(path.join(boxes.dataDir, "state")).filter((name) => name.startsWith("pool-")));
    const first = (await ok(alice, "create_box", { name: "warm-once", idempotencyKey: "warm-key-1" })).box;
    await pool.filled();
    const ready = new Set(readdirSync(path.join(boxes.dataDir, "state")).filter((name) => name.startsWith("pool-")));
    const again = (await ok(alice, "create_box", { name: "warm-once", idempotencyKey: "warm-key-1" })).box;
    expect(again.id).toBe(first.id);
    // the repeat reserved one of the ready boxes and released it: that one is gone, not back in the pool
    await pool.filled();
    const now = new Set(readdirSync(path.join(boxes.dataDir, "state")).filter((name) => name.startsWith("pool-")));
    const released = [...ready].filter((name) => !now.has(name));
    expect(released).toHaveLength(1);
    expect(before.has(released[0]!) || ready.has(released[0]!)).toBe(true);
    expect(mountsUnder(boxes.dataDir).some((point) => point.endsWith(released[0]!))).toBe(false);
    await ok(alice, "delete_box", { boxId: first.id, confirm: true });
  }, 180_000);

  it("when the disks are on the XFS store, then the box's enforcement says fork_box and snapshots copy it by reflink", async () => {
    if (!loopDevices) return;
    const box = (await ok(alice, "create_box", { name: "warm-enforced" })).box;
    expect(box.enforcement.disk).toContain("by reflink (copy-on-write)");
  }, 120_000);
});

describeBoxes("boxes started ahead, at the driver", () => {
  it("when the service that pooled boxes is killed, then the next start ends their sandboxes and removes them; a closing driver ends its own", async () => {
    if (!loopDevices) return;
    const dataDir = mkdtempSync(path.join(tmpdir(), "bancada-boxes-warm-"));
    const uidBase = 400_000 + randomInt(0, 100_000) * 100;
    const first = spawn(
      process.execPath,
      ["--import", "tsx", path.join(import.meta.dirname, "fixtures/pool-process.ts"), dataDir, String(uidBase), "2", "boxes"],
      { stdio: ["ignore", "pipe", "inherit"] },
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
    const pooled = readdirSync(path.join(dataDir, "state")).filter((name) => name.startsWith("pool-"));
    expect(pooled).toHaveLength(2);
    const inits = pooled.map(
      (name) =>
        (JSON.parse(readFileSync(path.join(dataDir, "state", name, "run", "runtime.json"), "utf8")) as { init: { pid: number } }).init.pid,
    );
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));
    // the sandboxes outlive their service, as boxes do
    for (const pid of inits) expect(existsSync(`/proc/${pid}`)).toBe(true);

    const second = await createLocalDriver({
      dataDir,
      log,
      probeUid: uidBase,
      pool: [{ dataGiB: 20, count: 1 }],
      hostUids: async () => uidBase + 50,
    });
    let closed = false;
    cleanupAfterTest(() => (closed ? undefined : second.close()));
    for (const pid of inits) expect(alive(pid)).toBe(false);
    expect(readdirSync(path.join(dataDir, "state")).filter((name) => pooled.includes(name))).toEqual([]);
    await second.pool!.filled();
    const own = readdirSync(path.join(dataDir, "state")).filter((name) => name.startsWith("pool-"));
    expect(own).toHaveLength(1);
    const ownInit = (
      JSON.parse(readFileSync(path.join(dataDir, "state", own[0]!, "run", "runtime.json"), "utf8")) as { init: { pid: number } }
    ).init.pid;
    expect(alive(ownInit)).toBe(true);
    await second.close();
    closed = true;
    expect(alive(ownInit)).toBe(false);
    expect(readdirSync(path.join(dataDir, "state")).filter((name) => name.startsWith("pool-"))).toEqual([]);
  }, 180_000);

  it("when a reservation is released, then its sandbox is ended and its disk removed; a create with any other uid starts its own box", async () => {
    if (!loopDevices) return;
    const dataDir = mkdtempSync(path.join(tmpdir(), "bancada-boxes-warm-"));
    const uidBase = 400_000 + randomInt(0, 100_000) * 100;
    let next = uidBase;
    const driver = await createLocalDriver({
      dataDir,
      log,
      probeUid: uidBase,
      pool: [{ dataGiB: 20, count: 1 }],
      hostUids: async () => ++next,
    });
    const box = { id: `bx_warm${randomInt(0, 1_000_000)}`, runtime: null as unknown };
    cleanupAfterTest(async () => {
      await driver.destroy(box).catch(() => {});
      await driver.close();
      for (const point of mountsUnder(dataDir)) execFileSync("umount", ["-l", point]);
      rmSync(dataDir, { recursive: true, force: true });
    });
    await driver.pool!.filled();
    const [name] = readdirSync(path.join(dataDir, "state")).filter((entry) => entry.startsWith("pool-"));
    const init = (JSON.parse(readFileSync(path.join(dataDir, "state", name!, "run", "runtime.json"), "utf8")) as { init: { pid: number } })
      .init.pid;
    const resources = { vcpus: 2, memMiB: 4096, dataGiB: 20 };
    const uid = await driver.reserveWarmBox(resources);
    expect(uid).toBe(uidBase + 1);
    // a box of another size finds none: the pool holds 20 GiB disks only
    expect(await driver.reserveWarmBox({ ...resources, dataGiB: 30 })).toBeNull();
    await driver.releaseWarmBox(uid!);
    expect(alive(init)).toBe(false);
    expect(existsSync(path.join(dataDir, "state", name!))).toBe(false);
    // a create whose uid was not reserved makes its own box, whatever the pool holds
    await driver.pool!.filled();
    box.runtime = await driver.create({ ...box, name: "cold", ...resources, hostUid: uidBase + 99 });
    expect((box.runtime as { sandboxId?: string }).sandboxId).toBeUndefined();
    const ran = await driver.exec(box, { command: { cmd: "hostname; id -u" }, cwd: "/", env: {}, timeoutMs: 30_000, maxOutputBytes: 1024 });
    expect(ran.stdout.toString()).toBe("cold\n0\n");
  }, 180_000);

  it("when the pool is disabled, then nothing is started ahead and every create starts its own box; with the XFS store off, the enforcement names the sparse copy and why", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "bancada-boxes-warm-"));
    const uidBase = 400_000 + randomInt(0, 100_000) * 100;
    const driver = await createLocalDriver({
      dataDir,
      log,
      probeUid: uidBase,
      pool: [],
      hostUids: async () => uidBase + 1,
      store: { mode: "off" },
    });
    const box = { id: `bx_cold${randomInt(0, 1_000_000)}`, runtime: null as unknown };
    cleanupAfterTest(async () => {
      await driver.destroy(box).catch(() => {});
      await driver.close();
      for (const point of mountsUnder(dataDir)) execFileSync("umount", ["-l", point]);
      rmSync(dataDir, { recursive: true, force: true });
    });
    expect(driver.pool).toBeNull();
    const resources = { vcpus: 2, memMiB: 4096, dataGiB: 20 };
    expect(await driver.reserveWarmBox(resources)).toBeNull();
    box.runtime = await driver.create({ ...box, name: "no-pool", ...resources, hostUid: uidBase + 7 });
    const ran = await driver.exec(box, { command: { cmd: "hostname" }, cwd: "/", env: {}, timeoutMs: 30_000, maxOutputBytes: 1024 });
    expect(ran.stdout.toString()).toBe("no-pool\n");
    const disk = driver.enforcement(resources).disk;
    if (!loopDevices) return void expect(disk).toBeNull();
    // /tmp's own filesystem decides: a sparse copy (and why) unless it can reflink itself
    expect(disk).toMatch(/by reflink \(copy-on-write\)|sparse copy: .*BOXES_DISK_STORE=off/);
    const copied = await driver.copyDisk(box, [{ kind: "box", id: `${box.id}c` }]);
    cleanupAfterTest(() => driver.destroy({ id: `${box.id}c`, runtime: null }).catch(() => {}));
    expect(disk).toContain(copied.method === "reflink" ? "by reflink" : "sparse copy");
  }, 180_000);
});

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) Z /.test(stat);
  } catch {
    return false;
  }
}
