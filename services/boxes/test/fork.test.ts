/**
 * fork_box through a real MCP client, the gateway and real bubblewrap boxes: copies carry the source's disk
 * (not its processes) and become boxes of their own; count and names at their edges; the plan's quotas
 * (boxes, memory, disk) for all copies at once; idempotency; tenancy; the REST route.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "@bancada/e2e";
import { afterAll, beforeAll, expect, it } from "vitest";
import { closeBoxFixture, describeBoxes, openBoxFixture, type BoxFixture } from "./stack.js";
import { allScopes, fails, issuePaths, ok, restClient, run, until, type Box } from "./helpers.js";

describeBoxes("fork_box", () => {
  let fixture: BoxFixture;
  let client: Client;
  let source: Box;

  beforeAll(async () => {
    fixture = await openBoxFixture("origin");
    client = fixture.client;
    source = fixture.box;
    await run(client, source.id, "mkdir -p project && echo 'made in origin' > project/readme && apt-config dump >/dev/null; echo $$ > pid");
  });
  afterAll(() => closeBoxFixture(fixture));

  const account = async (accountId: string, plan?: string) => {
    if (plan) await fixture.boxes.service().db.accountPlan.create({ data: { accountId, plan } });
    return connectClient(fixture.stack.mcpUrl, await fixture.stack.createKey({ scopes: allScopes, accountId }));
  };
  const remove = async (c: Client, boxes: Box[]) => {
    for (const box of boxes) await ok(c, "delete_box", { boxId: box.id, confirm: true });
  };

  it("when a running box is forked, then the copy runs with the source's files (not its processes), its own name, owner and metadata", async () => {
    const { boxes } = await ok<{ boxes: Box[] }>(client, "fork_box", {
      boxId: "origin",
      names: ["copy-one"],
      metadata: { kind: "tests", branch: "b1" },
    });
    expect(boxes).toHaveLength(1);
    const copy = boxes[0]!;
    expect(copy).toMatchObject({
      name: "copy-one",
      state: "running",
      operation: null,
      forkedFrom: source.id,
      vcpus: source.vcpus,
      memMiB: source.memMiB,
      dataGiB: source.dataGiB,
      metadata: { kind: "tests", branch: "b1" },
    });
    expect(copy.stateReason).toMatch(/^fork of origin \(bx_[a-z0-9]+\): disk (plain sparse copy|copy-on-write), \d+ ms$/);
    const inCopy = await run(
      client,
      copy.id,
      "cat project/readme; hostname; cat /etc/hostname; stat -c %u project/readme; ps -e -o pid= | wc -l",
    );
    const [readme, hostname, etcHostname, owner] = inCopy.stdout.trim().split("\n");
    expect(readme).toBe("made in origin");
    expect([hostname, etcHostname]).toEqual(["copy-one", "copy-one"]);
    expect(owner).toBe("0");
    // The copy's files belong to its own host user, not the source's.
    const service = fixture.boxes.service();
    const rows = await service.db.box.findMany({ where: { id: { in: [source.id, copy.id] } } });
    const uidOf = (id: string) => rows.find((row) => row.id === id)!.hostUid;
    expect(uidOf(copy.id)).not.toBe(uidOf(source.id));
    const { statSync } = await import("node:fs");
    expect(statSync(`${fixture.boxes.dataDir}/mnt/${copy.id}/home/project/readme`).uid).toBe(uidOf(copy.id));
    // Separate disks from now on; the source runs on, unchanged.
    await run(client, copy.id, "echo changed > project/readme");
    expect((await run(client, source.id, "cat project/readme")).stdout).toBe("made in origin\n");
    expect((await ok(client, "get_box", { boxId: source.id })).box).toMatchObject({ state: "running", operation: null });
    await remove(client, [copy]);
  });

  it("when names are given without count, then as many copies; a suspended source stays suspended while its copy runs", async () => {
    await ok(client, "suspend_box", { boxId: source.id });
    try {
      const { boxes } = await ok<{ boxes: Box[] }>(client, "fork_box", { boxId: source.id, names: ["while-paused"] });
      expect(boxes.map((box) => [box.name, box.state])).toEqual([["while-paused", "running"]]);
      expect((await ok(client, "get_box", { boxId: source.id })).box.state).toBe("suspended");
      expect((await run(client, boxes[0]!.id, "cat project/readme")).stdout).toBe("made in origin\n");
      await remove(client, boxes);
    } finally {
      await ok(client, "resume_box", { boxId: source.id });
    }
  });

  it("when count or names are out of range, then invalid_argument names the field: count 0 and 6, 6 names, names ≠ count, duplicates", async () => {
    const invalid = async (args: Record<string, unknown>, field: string) =>
      expect(issuePaths(await fails(client, "fork_box", { boxId: source.id, ...args }, "invalid_argument"))).toContain(field);
    await invalid({ count: 0 }, "count");
    await invalid({ count: 6 }, "count");
    await invalid({ count: 1.5 }, "count");
    await invalid({ names: ["a", "b", "c", "d", "e", "f"] }, "names");
    await invalid({ count: 2, names: ["a"] }, "names");
    await invalid({ count: 1, names: ["a", "b"] }, "names");
    await invalid({ names: ["same", "same"] }, "names");
    await invalid({ names: ["Not A Name"] }, "names[0]");
    await invalid({ names: [] }, "names");
    await fails(client, "fork_box", { boxId: source.id, names: ["origin"] }, "conflict");
    await fails(client, "fork_box", { boxId: "bx_nosuchbox" }, "not_found");
    expect((await ok<{ boxes: Box[] }>(client, "list_boxes", {})).boxes.map((box) => box.name)).toEqual(["origin"]);
  });

  it("when create_box waits longer than 2 s, then progress arrives every 2 s with the box's state", async () => {
    const updates: { progress: number; total?: number; message?: string }[] = [];
    const result = await client.callTool({ name: "create_box", arguments: { name: "slow-setup", setup: { cmd: "sleep 5" } } }, undefined, {
      timeout: 120_000,
      resetTimeoutOnProgress: true,
      onprogress: (update) => updates.push(update),
    });
    const { box } = result.structuredContent as { box: Box };
    expect(box.state).toBe("running");
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates[0]).toMatchObject({ total: 120, message: "box creating (running setup)" });
    expect(updates.map((update) => update.progress)).toEqual([...updates.map((update) => update.progress)].sort((a, b) => a - b));
    await remove(client, [box]);
  });

  it("when a paid account forks 5 copies, then all 5 run with server-chosen names", async () => {
    const paid = await account("acct-fork-pro", "pro");
    try {
      const { box: base } = await ok(paid, "create_box", { name: "base" });
      await run(paid, base.id, "echo base > mark");
      const updates: { progress: number; message?: string }[] = [];
      const result = await paid.callTool({ name: "fork_box", arguments: { boxId: base.id, count: 5 } }, undefined, {
        timeout: 120_000,
        resetTimeoutOnProgress: true,
        onprogress: (update) => updates.push(update),
      });
      const { boxes } = result.structuredContent as { boxes: Box[] };
      expect(boxes).toHaveLength(5);
      expect(new Set(boxes.map((box) => box.name)).size).toBe(5);
      for (const box of boxes) {
        expect(box.state).toBe("running");
        expect((await run(paid, box.id, "cat mark")).stdout).toBe("base\n");
      }
      // Progress every 2 s while waiting, counting the copies ready (none when the fork was quicker than that).
      for (const update of updates) expect(update.message).toMatch(/^[0-4] of 5 boxes ready$/);
      await fails(paid, "fork_box", { boxId: base.id, count: 6 }, "invalid_argument");
      await remove(paid, [...boxes, base]);
    } finally {
      await paid.close();
    }
  });

  it("when the copies would pass the plan (running boxes, disk), then failed_precondition names the limit for all copies at once", async () => {
    const free = await account("acct-fork-free");
    try {
      const { box: big } = await ok(free, "create_box", { name: "big", dataGiB: 400 });
      // 1 running + 3 copies > 3 running boxes.
      expect((await fails(free, "fork_box", { boxId: big.id, count: 3 }, "failed_precondition")).details).toMatchObject({
        limit: "runningBoxes",
        used: 1,
        requested: 3,
        max: 3,
      });
      // 400 + 2 × 400 GiB > 1000 GiB of disk.
      expect((await fails(free, "fork_box", { boxId: big.id, count: 2 }, "failed_precondition")).details).toMatchObject({
        limit: "dataGiB",
        used: 400,
        requested: 800,
        max: 1000,
      });
      expect((await ok(free, "get_box", { boxId: big.id })).box.operation).toBeNull();
      const { boxes } = await ok<{ boxes: Box[] }>(free, "fork_box", { boxId: big.id, count: 1 });
      expect(boxes[0]).toMatchObject({ state: "running", dataGiB: 400 });
      await remove(free, [...boxes, big]);
    } finally {
      await free.close();
    }
  });

  it("when fork_box repeats an idempotency key, then the same copies answer; other arguments with it answer idempotency_conflict", async () => {
    const args = { boxId: source.id, idempotencyKey: "fork-once", wait: false };
    const first = await ok<{ boxes: Box[] }>(client, "fork_box", args);
    const again = await ok<{ boxes: Box[] }>(client, "fork_box", { ...args, boxId: "origin" });
    expect(again.boxes.map((box) => box.id)).toEqual(first.boxes.map((box) => box.id));
    await fails(client, "fork_box", { ...args, metadata: { other: "x" } }, "idempotency_conflict");
    const copy = await until(
      () => ok(client, "get_box", { boxId: first.boxes[0]!.id }),
      (r) => r.box.operation === null,
      60_000,
    );
    expect(copy.box.state).toBe("running");
    await remove(client, [copy.box]);
  });

  it("when another account forks this box by id or name, then not_found, and nothing is made", async () => {
    const outsider = await account("acct-fork-b");
    try {
      await fails(outsider, "fork_box", { boxId: source.id }, "not_found");
      await fails(outsider, "fork_box", { boxId: "origin" }, "not_found");
      expect((await ok<{ boxes: Box[] }>(outsider, "list_boxes", { includeDeleted: true })).boxes).toEqual([]);
    } finally {
      await outsider.close();
    }
  });

  it("when the REST route forks, then 201 with the copies; invalid counts answer 400 with the field", async () => {
    const rest = restClient(fixture.stack.baseUrl, fixture.key);
    const made = await rest<{ boxes: Box[] }>(
      "POST",
      `/v1/boxes/${source.id}/fork`,
      { names: ["by-rest"] },
      { "Idempotency-Key": "rest-fork" },
    );
    expect(made.status).toBe(201);
    expect(made.body.boxes.map((box) => [box.name, box.state, box.forkedFrom])).toEqual([["by-rest", "running", source.id]]);
    const replay = await rest<{ boxes: Box[] }>(
      "POST",
      `/v1/boxes/origin/fork`,
      { names: ["by-rest"] },
      { "Idempotency-Key": "rest-fork" },
    );
    expect(replay.body.boxes[0]!.id).toBe(made.body.boxes[0]!.id);
    const refused = await rest<{ error: { code: string } }>("POST", `/v1/boxes/${source.id}/fork`, { count: 6 });
    expect([refused.status, refused.body.error.code]).toEqual([400, "invalid_argument"]);
    const other = restClient(fixture.stack.baseUrl, await fixture.stack.createKey({ scopes: allScopes, accountId: "acct-fork-rest-b" }));
    expect((await other("POST", `/v1/boxes/${source.id}/fork`, {})).status).toBe(404);
    await remove(client, made.body.boxes);
  });
});
