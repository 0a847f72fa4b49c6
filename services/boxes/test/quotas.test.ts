/**
 * What a box, an account and this machine may take: dataGiB is the size of the box's disk (ENOSPC past
 * it), the plan caps what an account runs at once, and the machine refuses a box it cannot hold. Each at
 * its edge: N fits, N+1 is refused with the limit named.
 */
import { statfsSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, startStack, type Stack } from "@bancada/e2e";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boxesTestStack, closeBoxFixture, describeBoxes, openBoxFixture, type BoxesTestStack, type BoxFixture } from "./stack.js";
import { allScopes, fails, ok, run, until, type Box } from "./helpers.js";

describeBoxes("disk and account quotas", () => {
  let fixture: BoxFixture;

  beforeAll(async () => {
    fixture = await openBoxFixture("quota");
  });
  afterAll(() => closeBoxFixture(fixture));

  const account = async (accountId: string) =>
    connectClient(fixture.stack.mcpUrl, await fixture.stack.createKey({ scopes: allScopes, accountId }));
  const create = async (client: Client, args: Record<string, unknown>) => (await ok(client, "create_box", { wait: false, ...args })).box;
  const settled = (client: Client, box: Box) =>
    until(
      () => ok(client, "get_box", { boxId: box.id }),
      (r) => r.box.operation === null,
      30_000,
    );

  it("when a box writes past its dataGiB, then the write fails with ENOSPC inside the box; up to it, it works", async ({ skip }) => {
    if (fixture.box.enforcement.disk === null) skip("this machine has no loop devices: box disks are plain folders without a size limit");
    // fallocate reserves blocks without writing them: instant, and the sparse image on the host stays small.
    const result = await run(
      fixture.client,
      fixture.box.id,
      "df -B1G --output=size /data/home | tail -1; fallocate -l 1G /data/home/fits && echo fits; rm -f /data/home/fits; fallocate -l 21G /data/home/big 2>&1; echo rc=$?; rm -f /data/home/big",
    );
    const [size, fits, refusal, code] = result.stdout.trim().split("\n");
    expect(Number(size)).toBe(20);
    expect(refusal).toMatch(/No space left on device/);
    expect(code).toBe("rc=1");
    expect(fits).toBe("fits");
  });

  it("when a free account holds 3 boxes, running or suspended, then a 4th is refused naming runningBoxes until one is deleted; a suspended box still counts", async () => {
    const client = await account("acct-count");
    try {
      const boxes = [await create(client, { name: "one" }), await create(client, { name: "two" }), await create(client, { name: "three" })];
      const refused = await fails(client, "create_box", { name: "four" }, "failed_precondition");
      expect(refused.details).toEqual({ limit: "runningBoxes", used: 3, requested: 1, max: 3, plan: "free" });
      expect(refused.message).toMatch(/plan \(free\) allows 3 running boxes/);
      for (const box of boxes) await settled(client, box);
      // Suspended, a box keeps its processes and memory: it frees no place.
      await ok(client, "suspend_box", { boxId: "three" });
      const still = await fails(client, "create_box", { name: "four" }, "failed_precondition");
      expect(still.details).toMatchObject({ limit: "runningBoxes", used: 3 });
      expect(still.message).toMatch(/suspended boxes count/);
      await ok(client, "delete_box", { boxId: "two", confirm: true });
      const four = await create(client, { name: "four" });
      await settled(client, four);
      expect((await ok(client, "resume_box", { boxId: "three" })).box.state).toBe("running");
    } finally {
      await client.close();
    }
  });

  it("when a free account's vCPUs or memory in running boxes would pass 8 or 12,288 MiB, then create_box is refused naming that limit", async () => {
    const client = await account("acct-size");
    try {
      const first = await create(client, { name: "four-cores", vcpus: 4, memMiB: 8192 });
      const second = await create(client, { name: "two-cores", vcpus: 2, memMiB: 4096 });
      expect((await fails(client, "create_box", { vcpus: 4, memMiB: 4096 }, "failed_precondition")).details).toEqual({
        limit: "vcpus",
        used: 6,
        requested: 4,
        max: 8,
        plan: "free",
      });
      expect((await fails(client, "create_box", { vcpus: 2, memMiB: 4096 }, "failed_precondition")).details).toEqual({
        limit: "memMiB",
        used: 12_288,
        requested: 4096,
        max: 12_288,
        plan: "free",
      });
      await settled(client, second);
      await ok(client, "delete_box", { boxId: second.id, confirm: true });
      // 8 vCPUs and 12,288 MiB: both limits reached exactly.
      const edge = await create(client, { name: "edge", vcpus: 4, memMiB: 4096 });
      expect(edge.state).toBe("creating");
      for (const box of [first, edge]) await settled(client, box);
    } finally {
      await client.close();
    }
  });

  it("when two creates race for the last place of an account, then exactly one gets it", async () => {
    const client = await account("acct-race");
    try {
      await create(client, { name: "a" });
      await create(client, { name: "b" });
      const results = await Promise.allSettled([
        ok(client, "create_box", { name: "c", wait: false }),
        ok(client, "create_box", { name: "d", wait: false }),
      ]);
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      const listed = await ok<{ boxes: Box[] }>(client, "list_boxes", {});
      for (const box of listed.boxes) await settled(client, box);
    } finally {
      await client.close();
    }
  });
});

describeBoxes("host admission", () => {
  let boxes: BoxesTestStack;
  let stack: Stack;
  let client: Client;

  beforeAll(async () => {
    // 12,288 MiB for boxes (14,336 less the 2,048 reserve) and 6 vCPUs (1 core × 6): a small machine, on paper.
    // One account may take the whole machine here (its share is the next block's subject).
    boxes = boxesTestStack({ hostMemoryMiB: 14_336, memoryReserveMiB: 2048, hostCores: 1, vcpuOvercommit: 6, accountSharePercent: 100 });
    stack = await startStack({ services: { boxes: boxes.factory } });
    await boxes.service().db.accountPlan.create({ data: { accountId: "acct-big", plan: "scale" } });
    client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes, accountId: "acct-big" }));
  });
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
    await boxes?.cleanup();
  });

  describe("with room for 12,288 MiB and 6 vCPUs", () => {
    it("when boxes fill the memory and the vCPUs exactly, then they fit; one more is refused unavailable naming the resource; a suspended box still holds its share", async () => {
      const a = (await ok(client, "create_box", { name: "a", vcpus: 2, memMiB: 4096 })).box;
      const b = (await ok(client, "create_box", { name: "b", vcpus: 4, memMiB: 8192 })).box;
      expect([a.state, b.state]).toEqual(["running", "running"]);
      const memory = await fails(client, "create_box", { name: "c", vcpus: 2, memMiB: 4096 }, "unavailable");
      expect(memory.details).toMatchObject({ resource: "memMiB", used: 12_288, requested: 4096, capacity: 12_288 });
      expect(memory.message).toMatch(/never overcommitted/);
      await ok(client, "suspend_box", { boxId: "b" });
      expect((await fails(client, "create_box", { name: "c", vcpus: 2, memMiB: 4096 }, "unavailable")).details).toMatchObject({
        resource: "memMiB",
      });
      await ok(client, "delete_box", { boxId: "b", confirm: true });
      const cpus = await fails(client, "create_box", { name: "c", vcpus: 8, memMiB: 4096 }, "unavailable");
      expect(cpus.details).toMatchObject({ resource: "vcpus", used: 2, requested: 8, capacity: 6 });
      expect((await ok(client, "create_box", { name: "c", vcpus: 4, memMiB: 8192 })).box.state).toBe("running");
    });
  });
});

describeBoxes("one account's share of a node", () => {
  let boxes: BoxesTestStack;
  let stack: Stack;
  let big: Client;
  let other: Client;

  beforeAll(async () => {
    // 32,768 MiB and 16 vCPUs for boxes, the default share (50%): one account may hold 16,384 MiB and 8 vCPUs here.
    boxes = boxesTestStack({ hostMemoryMiB: 34_816, memoryReserveMiB: 2048, hostCores: 2, vcpuOvercommit: 8 });
    stack = await startStack({ services: { boxes: boxes.factory } });
    await boxes.service().db.accountPlan.create({ data: { accountId: "acct-share", plan: "scale" } });
    big = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes, accountId: "acct-share" }));
    other = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes, accountId: "acct-other" }));
  });
  afterAll(async () => {
    await big?.close();
    await other?.close();
    await stack?.stop();
    await boxes?.cleanup();
  });

  it("when an account holds half the node, even suspended, then its next box is refused naming nodeShare and another account's box fits", async () => {
    await ok(big, "create_box", { name: "a", vcpus: 4, memMiB: 8192 });
    await ok(big, "create_box", { name: "b", vcpus: 4, memMiB: 8192 });
    await ok(big, "suspend_box", { boxId: "b" });
    const refused = await fails(big, "create_box", { name: "c", vcpus: 2, memMiB: 4096 }, "failed_precondition");
    expect(refused.details).toEqual({
      limit: "nodeShare",
      resource: "memMiB",
      used: 16_384,
      requested: 4096,
      max: 16_384,
      sharePercent: 50,
      node: expect.any(String),
    });
    expect(refused.message).toMatch(/at most 50% of this machine/);
    // The plan (scale: 50 boxes, 256 vCPUs) would allow it: the share is what keeps room for the other account.
    expect((await ok(other, "create_box", { name: "theirs", vcpus: 4, memMiB: 8192 })).box.state).toBe("running");
    await ok(big, "delete_box", { boxId: "b", confirm: true });
    expect((await ok(big, "create_box", { name: "c", vcpus: 4, memMiB: 8192 })).box.state).toBe("running");
  });
});

describeBoxes("disk admission", () => {
  let boxes: BoxesTestStack;
  let stack: Stack;
  let client: Client;

  beforeAll(async () => {
    // No overcommit: a box's disk is admitted only when it fits in the free space with what other disks may still grow to.
    boxes = boxesTestStack({ diskOvercommit: 1 });
    stack = await startStack({ services: { boxes: boxes.factory } });
    client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes, accountId: "acct-disk" }));
  });
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
    await boxes?.cleanup();
  });

  it("when a disk larger than the free space is asked for, then create_box answers unavailable naming disk; what other sparse disks may still grow to counts", async ({
    skip,
  }) => {
    const free = statfsSync(boxes.dataDir);
    const freeGiB = Math.floor((free.bavail * free.bsize) / 1024 ** 3);
    if (freeGiB >= 500) skip(`this machine has ${freeGiB} GiB free: a 500 GiB disk would fit`);
    const refused = await fails(client, "create_box", { name: "huge", dataGiB: 500 }, "unavailable");
    expect(refused.details).toMatchObject({ resource: "disk", used: 0, requested: 500, node: expect.any(String) });
    expect((refused.details as { capacity: number }).capacity).toBeLessThan(500);
    expect(refused.message).toMatch(/cannot hold the box's disk/);
    const room = (refused.details as { capacity: number }).capacity;
    if (room < 45) skip(`only ${room} GiB free here: not enough to show two disks adding up`);
    // A sparse image takes almost nothing when made, yet may grow to its size: the next disk must leave it room.
    const first = (await ok(client, "create_box", { name: "first", dataGiB: room - 10 })).box;
    expect(first.state).toBe("running");
    const second = await fails(client, "create_box", { name: "second", dataGiB: 20 }, "unavailable");
    expect(second.details).toMatchObject({ resource: "disk", used: room - 10, requested: 20 });
    await ok(client, "delete_box", { boxId: "first", confirm: true });
    expect((await ok(client, "create_box", { name: "second", dataGiB: 20 })).box.state).toBe("running");
  });
});
