/**
 * The box lifecycle through a real MCP client and the gateway: create, get, list, suspend/resume with
 * processes intact, transitions refused while another runs, delete, idempotency, names, tenancy, scopes.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, startStack, type Stack } from "@bancada/e2e";
import { boxesTestStack, type BoxesTestStack, describeBoxes } from "./stack.js";
import { allScopes, call, fails, ok, run, until, type Box, type ErrorBody, type Job } from "./helpers.js";

describeBoxes("box lifecycle", () => {
  let boxes: BoxesTestStack;
  let stack: Stack;
  let client: Client;
  let box: Box;

  beforeAll(async () => {
    boxes = boxesTestStack();
    stack = await startStack({ services: { boxes: boxes.factory } });
    client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes }));
    box = (await ok(client, "create_box", { name: "life", metadata: { kind: "tests", team: "a" } })).box;
  });
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
    await boxes?.cleanup();
  });

  it("when create_box waits, then the box is running with its size, policies, metadata and enforcement shown", async () => {
    expect(box).toMatchObject({
      name: "life",
      state: "running",
      operation: null,
      vcpus: 2,
      memMiB: 4096,
      dataGiB: 20,
      autoSuspendSeconds: 300,
      maxRunMinutes: 240,
    });
    expect(box.id).toMatch(/^bx_[a-z0-9]+$/);
    expect(box.metadata).toEqual({ kind: "tests", team: "a" });
    expect(box.sshCommand).toBeNull();
    expect(box.enforcement).toMatchObject({ processes: { max: 128 }, user: expect.stringContaining("unprivileged host user") });
    // A disk image on a loop device where the machine has them (quotas.test.ts fills one); a plain folder, unlimited, elsewhere.
    // How fork_box and snapshots copy it follows (the XFS store: by reflink; warm-boxes.test.ts has the sparse copy).
    expect(box.enforcement.disk).toBe(
      existsSync("/dev/loop-control")
        ? "20 GiB ext4 image on a loop device (writes past it fail with ENOSPC); fork_box and snapshots copy it by reflink (copy-on-write)"
        : null,
    );
    // The reapers (reapers.test.ts) say how they act on the policies.
    expect(String(box.enforcement.autoSuspend)).toContain("after 300 s");
    expect(String(box.enforcement.maxRun)).toContain("after 240 minutes");
    expect(String(box.enforcement.deleteAfter)).toContain("never deleted automatically");
    expect(String(box.enforcement.network)).toContain("loopback only");
  });

  it("when get_box is called by id or by name, then both answer the same box", async () => {
    const byId = await ok(client, "get_box", { boxId: box.id });
    const byName = await ok(client, "get_box", { boxId: "life" });
    expect(byName.box).toEqual(byId.box);
    await fails(client, "get_box", { boxId: "bx_doesnotexist" }, "not_found");
    await fails(client, "get_box", { boxId: "Not A Name" }, "invalid_argument");
  });

  it("when a box is suspended, then exec answers failed_precondition until resume_box, and the same processes continue", async () => {
    const counter = "echo $$ > /data/home/counter.pid; i=0; while :; do i=$((i+1)); echo $i > /data/home/count; sleep 0.2; done";
    const { job } = await ok<{ job: Job }>(client, "start_job", { boxId: box.id, cmd: counter });
    const before = await until(
      () => run(client, box.id, "cat /data/home/count /data/home/counter.pid 2>/dev/null"),
      (r) => r.stdout.trim().split("\n").length === 2,
    );
    const [, pid] = before.stdout.trim().split("\n");
    const suspended = await ok(client, "suspend_box", { boxId: box.id });
    expect(suspended.box).toMatchObject({ state: "suspended", operation: null });
    const error = await fails(client, "exec", { boxId: box.id, cmd: "true" }, "failed_precondition");
    expect(error.message).toContain("resume_box");
    await fails(client, "read_file", { boxId: box.id, path: "count" }, "failed_precondition");
    await fails(client, "start_job", { boxId: box.id, cmd: "true" }, "failed_precondition");
    const frozenCount = Number((await boxFile(box.id)).trim());
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(Number((await boxFile(box.id)).trim())).toBe(frozenCount);
    const resumed = await ok(client, "resume_box", { boxId: box.id });
    expect(resumed.box).toMatchObject({ state: "running", operation: null });
    const after = await until(
      () => run(client, box.id, "cat /data/home/count; kill -0 $(cat /data/home/counter.pid) && echo alive"),
      (r) => Number(r.stdout.split("\n")[0]) > frozenCount + 1,
    );
    expect(after.stdout.trim().split("\n")[1]).toBe("alive");
    expect((await run(client, box.id, "cat /data/home/counter.pid")).stdout.trim()).toBe(pid);
    expect(Number(after.stdout.split("\n")[0])).toBeGreaterThan(frozenCount);
    expect((await ok<{ job: Job }>(client, "job_wait", { boxId: box.id, jobId: job.id, timeoutSeconds: 1 })).job.status).toBe("running");
  });

  it("when a box is asleep from idleness, then exec wakes it with its processes, and suspend_box turns sleep into a pause", async () => {
    // Put to sleep the way the idle reaper does (reapers.test.ts runs the reaper itself): frozen, state sleeping.
    const service = boxes.service();
    const row = await service.db.box.findUniqueOrThrow({ where: { id: box.id } });
    await service.driver.suspend({ id: row.id, runtime: row.runtime });
    await service.db.box.update({ where: { id: box.id }, data: { state: "sleeping" } });
    const woken = await run(client, box.id, "cat /data/home/counter.pid");
    expect(woken.stdout.trim()).toMatch(/^\d+$/);
    expect((await ok(client, "get_box", { boxId: box.id })).box.state).toBe("running");
    await service.driver.suspend({ id: row.id, runtime: row.runtime });
    await service.db.box.update({ where: { id: box.id }, data: { state: "sleeping" } });
    expect((await ok(client, "suspend_box", { boxId: box.id })).box.state).toBe("suspended");
    await fails(client, "exec", { boxId: box.id, cmd: "true" }, "failed_precondition");
    expect((await ok(client, "resume_box", { boxId: box.id })).box.state).toBe("running");
    expect((await run(client, box.id, "kill -0 $(cat /data/home/counter.pid) && echo alive")).stdout).toBe("alive\n");
  });

  it("when suspend or resume repeats a state the box is already in, then it answers the box unchanged", async () => {
    expect((await ok(client, "resume_box", { boxId: box.id })).box.state).toBe("running");
  });

  it("when another operation is in progress, then a second transition answers failed_precondition and get_box shows the operation", async () => {
    // A setup keeps the create in progress for seconds: a box started ahead (the warm pool) is running within a few ms.
    const { box: creating } = await ok(client, "create_box", { name: "busy", wait: false, setup: { cmd: "sleep 4" } });
    expect(creating).toMatchObject({ state: "creating", operation: { kind: "create" } });
    const error = await fails(client, "suspend_box", { boxId: creating.id }, "failed_precondition");
    expect(error.details).toMatchObject({ operation: { kind: "create" } });
    await fails(client, "exec", { boxId: creating.id, cmd: "true" }, "failed_precondition");
    const ready = await until(
      () => ok(client, "get_box", { boxId: creating.id }),
      (r) => r.box.operation === null,
      30_000,
    );
    expect(ready.box.state).toBe("running");
    const suspending = await ok(client, "suspend_box", { boxId: creating.id, wait: false });
    if (suspending.box.operation) {
      // The suspend can finish between its answer and this call (a loaded machine); a resume after it is an ordinary resume.
      const resumed = await call<{ box: Box; error: ErrorBody }>(client, "resume_box", { boxId: creating.id });
      if (resumed.isError) expect(resumed.data.error.code).toBe("failed_precondition");
      else await ok(client, "suspend_box", { boxId: creating.id });
    }
    await until(
      () => ok(client, "get_box", { boxId: creating.id }),
      (r) => r.box.operation === null,
    );
    expect((await ok(client, "get_box", { boxId: creating.id })).box.state).toBe("suspended");
    const deleted = await ok(client, "delete_box", { boxId: creating.id, confirm: true });
    expect(deleted.box.state).toBe("deleted");
  });

  it("when delete_box lacks confirm: true, then invalid_argument names confirm and the box stays", async () => {
    const error = await fails(client, "delete_box", { boxId: box.id }, "invalid_argument");
    expect(error.details?.issues).toEqual([expect.objectContaining({ path: "confirm" })]);
    await fails(client, "delete_box", { boxId: box.id, confirm: false }, "invalid_argument");
    expect((await ok(client, "get_box", { boxId: box.id })).box.state).toBe("running");
  });

  it("when list_boxes filters by state and metadata and pages with a cursor, then each box appears once, newest first", async () => {
    const other = (await ok(client, "create_box", { name: "other", metadata: { kind: "render" } })).box;
    const byKind = await ok<{ boxes: Box[] }>(client, "list_boxes", { metadata: { kind: "render" } });
    expect(byKind.boxes.map((b) => b.id)).toEqual([other.id]);
    const running = await ok<{ boxes: Box[] }>(client, "list_boxes", { state: ["running"] });
    expect(running.boxes.map((b) => b.id)).toEqual([other.id, box.id]);
    const first = await ok<{ boxes: Box[]; nextCursor: string | null }>(client, "list_boxes", { limit: 1 });
    expect(first.boxes).toHaveLength(1);
    const second = await ok<{ boxes: Box[]; nextCursor: string | null }>(client, "list_boxes", { limit: 1, cursor: first.nextCursor });
    expect(second.boxes[0]!.id).not.toBe(first.boxes[0]!.id);
    expect(String(second.boxes[0]!.createdAt) <= String(first.boxes[0]!.createdAt)).toBe(true);
    await fails(client, "list_boxes", { cursor: "garbage" }, "invalid_argument");
    await ok(client, "delete_box", { boxId: other.id, confirm: true });
    const live = await ok<{ boxes: Box[] }>(client, "list_boxes", {});
    expect(live.boxes.map((b) => b.id)).not.toContain(other.id);
    const all = await ok<{ boxes: Box[] }>(client, "list_boxes", { includeDeleted: true });
    expect(all.boxes.find((b) => b.id === other.id)?.state).toBe("deleted");
  });

  it("when a box is deleted, then its processes and files are gone, exec answers failed_precondition, and its name is free again", async () => {
    const doomed = (await ok(client, "create_box", { name: "doomed" })).box;
    await ok(client, "write_file", { boxId: doomed.id, path: "keep.txt", content: "x" });
    const deleted = await ok(client, "delete_box", { boxId: "doomed", confirm: true });
    expect(deleted.box).toMatchObject({ state: "deleted", operation: null });
    expect(deleted.box.deletedAt).toBeTruthy();
    const error = await fails(client, "exec", { boxId: doomed.id, cmd: "true" }, "failed_precondition");
    expect(error.message).toContain("deleted");
    expect((await ok(client, "delete_box", { boxId: doomed.id, confirm: true })).box.state).toBe("deleted");
    await fails(client, "get_box", { boxId: "doomed" }, "not_found");
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(boxes.dataDir)).not.toContain(doomed.id);
    const again = (await ok(client, "create_box", { name: "doomed", wait: false })).box;
    expect(again).toMatchObject({ name: "doomed", state: "creating" });
    expect(again.id).not.toBe(doomed.id);
  });

  it("when a name is taken by a live box, then create_box answers conflict with the current box", async () => {
    const error = await fails(client, "create_box", { name: "life" }, "conflict");
    expect((error.details?.current as Box).id).toBe(box.id);
  });

  it("when create_box repeats an idempotency key, then the same box comes back; with other arguments, idempotency_conflict", async () => {
    const key = "create-once-1";
    const first = await ok(client, "create_box", { name: "once", idempotencyKey: key, wait: false, metadata: { a: "1", b: "2" } });
    const again = await ok(client, "create_box", { name: "once", idempotencyKey: key, wait: true, metadata: { b: "2", a: "1" } });
    expect(again.box.id).toBe(first.box.id);
    expect(again.box.state).toBe("running");
    await fails(client, "create_box", { name: "once-other", idempotencyKey: key }, "idempotency_conflict");
    const listed = await ok<{ boxes: Box[] }>(client, "list_boxes", { metadata: { a: "1" } });
    expect(listed.boxes).toHaveLength(1);
    await ok(client, "delete_box", { boxId: first.box.id, confirm: true });
  });

  it("when another account names this box, then every tool answers not_found", async () => {
    const outsider = await connectClient(
      stack.mcpUrl,
      await stack.createKey({ scopes: allScopes, accountId: "acct-b", personId: "person-b" }),
    );
    try {
      for (const [tool, args] of [
        ["get_box", { boxId: box.id }],
        ["exec", { boxId: box.id, cmd: "true" }],
        ["read_file", { boxId: box.id, path: "count" }],
        ["suspend_box", { boxId: box.id }],
        ["delete_box", { boxId: box.id, confirm: true }],
        ["get_box", { boxId: "life" }],
      ] as const) {
        await fails(outsider, tool, args, "not_found");
      }
      expect((await ok<{ boxes: Box[] }>(outsider, "list_boxes", { includeDeleted: true })).boxes).toEqual([]);
    } finally {
      await outsider.close();
    }
    expect((await ok(client, "get_box", { boxId: box.id })).box.state).toBe("running");
  });

  it("when a key lacks boxes:exec, boxes:delete or boxes:write, then those tools answer permission_denied naming the scope", async () => {
    const reader = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: ["boxes:read", "boxes:write"] }));
    try {
      const denied = await fails(reader, "exec", { boxId: box.id, cmd: "true" }, "permission_denied");
      expect(denied.details?.requiredScope).toBe("boxes:exec");
      expect((await fails(reader, "start_job", { boxId: box.id, cmd: "true" }, "permission_denied")).details?.requiredScope).toBe(
        "boxes:exec",
      );
      expect((await fails(reader, "delete_box", { boxId: box.id, confirm: true }, "permission_denied")).details?.requiredScope).toBe(
        "boxes:delete",
      );
      const tools = (await reader.listTools()).tools.map((tool) => tool.name);
      expect(tools).not.toContain("exec");
      expect(tools).toContain("read_file");
    } finally {
      await reader.close();
    }
    const readOnly = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: ["boxes:read"] }));
    try {
      expect(
        (await fails(readOnly, "write_file", { boxId: box.id, path: "x", content: "" }, "permission_denied")).details?.requiredScope,
      ).toBe("boxes:write");
      expect((await ok(readOnly, "get_box", { boxId: box.id })).box.id).toBe(box.id);
    } finally {
      await readOnly.close();
    }
  });

  async function boxFile(boxId: string): Promise<string> {
    const { readFile } = await import("node:fs/promises");
    return readFile(`${boxes.dataDir}/mnt/${boxId}/home/count`, "utf8");
  }
});
