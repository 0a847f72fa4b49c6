/**
 * Every create_box rule of docs/boxes.md#limits at its edge (N passes, N+1 fails), the plan-dependent ones, the
 * limits of the other tools, and the REST API that mirrors the tools.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { subjects } from "@bancada/contracts";
import { MemoryBus, createLogger } from "@bancada/service-kit";
import { connectClient, freshDatabase, type Stack } from "@bancada/e2e";
import { createBoxesService } from "../src/index.js";
import { type BoxesTestStack, closeBoxFixture, describeBoxes, openBoxFixture } from "./stack.js";
import { allScopes, fails, issuePaths, ok, restClient, until, type Box, type ExecResult, type Job } from "./helpers.js";

describeBoxes("limits and REST", () => {
  let boxes: BoxesTestStack;
  let stack: Stack;
  let client: Client;
  let key: string;
  let box: Box;

  beforeAll(async () => {
    ({ boxes, stack, key, client, box } = await openBoxFixture("edges"));
  });
  afterAll(() => closeBoxFixture({ boxes, stack, client }));

  const invalid = async (args: Record<string, unknown>, field: string) => {
    const error = await fails(client, "create_box", { wait: false, ...args }, "invalid_argument");
    expect(issuePaths(error)).toContain(field);
  };

  describe("create_box", () => {
    it("when a value is past an edge of the create_box rules, then invalid_argument names the field", async () => {
      await invalid({ vcpus: 3 }, "vcpus");
      await invalid({ vcpus: 64 }, "vcpus");
      await invalid({ memMiB: 2048 }, "memMiB");
      await invalid({ vcpus: 2, memMiB: 8192 }, "memMiB");
      await invalid({ dataGiB: 19 }, "dataGiB");
      await invalid({ dataGiB: 501 }, "dataGiB");
      await invalid({ autoSuspendSeconds: 299 }, "autoSuspendSeconds");
      await invalid({ autoSuspendSeconds: 1801 }, "autoSuspendSeconds");
      await invalid({ autoSuspendSeconds: 330 }, "autoSuspendSeconds");
      await invalid({ maxRunMinutes: 0 }, "maxRunMinutes");
      await invalid({ maxRunMinutes: -2 }, "maxRunMinutes");
      await invalid({ deleteAfterSeconds: 59 }, "deleteAfterSeconds");
      await invalid({ deleteAfterSeconds: 86_401 }, "deleteAfterSeconds");
      await invalid({ name: "n".repeat(41) }, "name");
      await invalid({ name: "Upper_Case" }, "name");
      await invalid({ metadata: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${i}`, "v"])) }, "metadata");
      await invalid({ idempotencyKey: "k".repeat(201) }, "idempotencyKey");
      await invalid({ setup: { cmd: "true", argv: ["true"] } }, "setup.argv");
      await invalid({ unknownField: 1 }, "unknownField");
    });

    it("when every value sits exactly on an edge, then the box is created with those values", async () => {
      const metadata = Object.fromEntries(Array.from({ length: 32 }, (_, i) => [`k${i}`, "v"]));
      const settleAndDelete = async (made: Box) => {
        await until(
          () => ok(client, "get_box", { boxId: made.id }),
          (r) => r.box.operation === null,
          30_000,
        );
        await ok(client, "delete_box", { boxId: made.id, confirm: true });
      };
      const low = await ok(client, "create_box", {
        name: "a".repeat(40),
        vcpus: 2,
        memMiB: 4096,
        dataGiB: 20,
        autoSuspendSeconds: 300,
        maxRunMinutes: 1,
        deleteAfterSeconds: 60,
        metadata,
        idempotencyKey: "k".repeat(200),
        wait: false,
      });
      expect(low.box).toMatchObject({
        name: "a".repeat(40),
        dataGiB: 20,
        autoSuspendSeconds: 300,
        maxRunMinutes: 1,
        deleteAfterSeconds: 60,
      });
      expect(Object.keys(low.box.metadata)).toHaveLength(32);
      // One at a time: the free plan's 12,288 MiB in running boxes holds this file's box and one of these.
      await settleAndDelete(low.box);
      const high = await ok(client, "create_box", {
        name: "edge-high",
        vcpus: 4,
        memMiB: 8192,
        dataGiB: 500,
        autoSuspendSeconds: 1800,
        maxRunMinutes: 43_200,
        deleteAfterSeconds: 86_400,
        wait: false,
      });
      expect(high.box).toMatchObject({
        vcpus: 4,
        memMiB: 8192,
        dataGiB: 500,
        autoSuspendSeconds: 1800,
        maxRunMinutes: 43_200,
        deleteAfterSeconds: 86_400,
      });
      expect(String(high.box.enforcement.memory)).toContain("8192 MiB");
      await settleAndDelete(high.box);
    });

    it("when the plan does not allow a value, then failed_precondition names it; a paid plan allows it", async () => {
      expect(issuePaths(await fails(client, "create_box", { vcpus: 8, memMiB: 16384 }, "failed_precondition"))).toEqual(["vcpus"]);
      expect(issuePaths(await fails(client, "create_box", { autoSuspendSeconds: 0 }, "failed_precondition"))).toEqual([
        "autoSuspendSeconds",
      ]);
      expect(issuePaths(await fails(client, "create_box", { maxRunMinutes: -1 }, "failed_precondition"))).toEqual(["maxRunMinutes"]);
      await boxes.service().db.accountPlan.create({ data: { accountId: "acct-paid", plan: "pro" } });
      const paid = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: allScopes, accountId: "acct-paid" }));
      try {
        const made = await ok(paid, "create_box", { vcpus: 16, memMiB: 32768, autoSuspendSeconds: 0, maxRunMinutes: -1, wait: false });
        expect(made.box).toMatchObject({ vcpus: 16, memMiB: 32768, autoSuspendSeconds: 0, maxRunMinutes: -1 });
        expect(issuePaths(await fails(paid, "create_box", { vcpus: 32, memMiB: 65536 }, "failed_precondition"))).toEqual(["vcpus"]);
        await until(
          () => ok(paid, "get_box", { boxId: made.box.id }),
          (r) => r.box.operation === null,
          30_000,
        );
        await ok(paid, "delete_box", { boxId: made.box.id, confirm: true });
      } finally {
        await paid.close();
      }
    });

    it("when a template, version, snapshot or secret does not exist, then not_found names it", async () => {
      expect((await fails(client, "create_box", { template: "ubuntu" }, "not_found")).details).toMatchObject({ template: "ubuntu" });
      expect((await fails(client, "create_box", { templateVersion: "0" }, "not_found")).details).toMatchObject({ templateVersion: "0" });
      const snapshot = await fails(client, "create_box", { snapshotId: "snap_x" }, "not_found");
      expect(snapshot.details).toMatchObject({ snapshotId: "snap_x" });
      expect(snapshot.message).toContain("list_snapshots");
      const secret = await fails(client, "create_box", { secrets: ["API_KEY"] }, "not_found");
      expect(secret.details).toMatchObject({ secrets: ["API_KEY"] });
      expect(secret.message).toContain("No workspace secret named API_KEY");
      const { box: same } = await ok(client, "get_box", { boxId: box.id });
      expect(
        (await ok(client, "create_box", { template: same.template, templateVersion: same.templateVersion, wait: false })).box.template,
      ).toBe("host");
    });
  });

  describe("other tools", () => {
    it("when list_boxes' limit is 1 or 100, then it answers; 0 or 101, invalid_argument", async () => {
      expect((await ok<{ boxes: Box[] }>(client, "list_boxes", { limit: 1 })).boxes).toHaveLength(1);
      await ok(client, "list_boxes", { limit: 100 });
      expect(issuePaths(await fails(client, "list_boxes", { limit: 0 }, "invalid_argument"))).toEqual(["limit"]);
      expect(issuePaths(await fails(client, "list_boxes", { limit: 101 }, "invalid_argument"))).toEqual(["limit"]);
      expect(issuePaths(await fails(client, "list_boxes", { state: ["asleep"] }, "invalid_argument"))[0]).toMatch(/^state/);
    });

    it("when exec gets both or neither of cmd and argv, bad env names or too many, then invalid_argument names the field", async () => {
      expect(issuePaths(await fails(client, "exec", { boxId: box.id, cmd: "true", argv: ["true"] }, "invalid_argument"))).toEqual(["argv"]);
      expect(issuePaths(await fails(client, "exec", { boxId: box.id }, "invalid_argument"))).toEqual(["cmd"]);
      expect(issuePaths(await fails(client, "exec", { boxId: box.id, argv: [] }, "invalid_argument"))).toEqual(["argv"]);
      expect(issuePaths(await fails(client, "exec", { boxId: box.id, cmd: "true", env: { "1BAD": "x" } }, "invalid_argument"))[0]).toMatch(
        /^env/,
      );
      const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`V${i}`, "x"]));
      expect(issuePaths(await fails(client, "exec", { boxId: box.id, cmd: "true", env: many }, "invalid_argument"))).toEqual(["env"]);
      const hundred = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`V${i}`, "x"]));
      expect((await ok<ExecResult>(client, "exec", { boxId: box.id, cmd: "echo $V99", env: hundred })).stdout).toBe("x\n");
      expect((await fails(client, "exec", { boxId: box.id, cmd: "x".repeat(100_001) }, "payload_too_large")).code).toBe(
        "payload_too_large",
      );
    });
  });

  it("when the machine cannot run boxes (no bubblewrap), then the service still starts, lists boxes, and box calls answer unavailable", async () => {
    const database = await freshDatabase("bancada_boxes_nobwrap");
    const service = await createBoxesService({
      databaseUrl: database.url,
      bus: new MemoryBus(),
      subjects: subjects("nobwrap"),
      log: createLogger("nobwrap", "silent"),
      dataDir: boxes.dataDir,
      bwrapPath: "/nonexistent/bwrap",
    });
    try {
      const principal = {
        keyId: "k",
        accountId: "a",
        personId: "p",
        agentId: "g",
        scopes: allScopes,
        allowWrites: true,
        allowedBoardIds: null,
        profile: "full" as const,
      };
      expect(await service.host.call("list_boxes", {}, principal)).toEqual({ ok: true, result: { boxes: [], nextCursor: null } });
      const refused = await service.host.call("create_box", { name: "nope" }, principal);
      expect(refused.ok ? null : refused.error).toMatchObject({ code: "unavailable", message: expect.stringContaining("bubblewrap") });
    } finally {
      await service.stop();
      await database.drop();
    }
  });

  describe("REST", () => {
    it("when the REST API is used, then it mirrors the tools: create, exec, files, jobs, suspend/resume, delete", async () => {
      const rest = restClient(stack.baseUrl, key);
      const created = await rest<{ box: Box }>(
        "POST",
        "/v1/boxes",
        { name: "via-rest", metadata: { kind: "rest" } },
        { "Idempotency-Key": "rest-1" },
      );
      expect(created.status).toBe(201);
      expect(created.body.box.state).toBe("running");
      const again = await rest<{ box: Box }>(
        "POST",
        "/v1/boxes",
        { name: "via-rest", metadata: { kind: "rest" } },
        { "Idempotency-Key": "rest-1" },
      );
      expect(again.body.box.id).toBe(created.body.box.id);
      const id = created.body.box.id;
      expect((await rest<{ box: Box }>("GET", `/v1/boxes/via-rest`)).body.box.id).toBe(id);
      expect(
        (await rest<{ boxes: Box[] }>("GET", "/v1/boxes?metadata.kind=rest&state=running,creating")).body.boxes.map((b) => b.id),
      ).toEqual([id]);
      expect((await rest<ExecResult>("POST", `/v1/boxes/${id}/exec`, { cmd: "echo rest" })).body.stdout).toBe("rest\n");
      expect((await rest("PUT", `/v1/boxes/${id}/files`, { path: "r.txt", content: "hello" })).status).toBe(200);
      expect((await rest<{ content: string }>("GET", `/v1/boxes/${id}/files?path=r.txt`)).body.content).toBe("hello");
      const job = await rest<{ job: Job }>("POST", `/v1/boxes/${id}/jobs`, { cmd: "echo job-out" });
      expect(job.status).toBe(201);
      const waited = await rest<{ job: Job }>("POST", `/v1/boxes/${id}/jobs/${job.body.job.id}/wait`, { timeoutSeconds: 30 });
      expect(waited.body.job.status).toBe("succeeded");
      expect((await rest<{ data: string }>("GET", `/v1/boxes/${id}/jobs/${job.body.job.id}/logs?tail=1`)).body.data).toBe("job-out\n");
      expect((await rest<{ box: Box }>("POST", `/v1/boxes/${id}/suspend`, {})).body.box.state).toBe("suspended");
      const refused = await rest<{ error: { code: string } }>("POST", `/v1/boxes/${id}/exec`, { cmd: "true" });
      expect([refused.status, refused.body.error.code]).toEqual([409, "failed_precondition"]);
      expect((await rest<{ box: Box }>("POST", `/v1/boxes/${id}/resume`, {})).body.box.state).toBe("running");
      const unconfirmed = await rest<{ error: { code: string } }>("DELETE", `/v1/boxes/${id}`);
      expect([unconfirmed.status, unconfirmed.body.error.code]).toEqual([400, "invalid_argument"]);
      expect((await rest<{ box: Box }>("DELETE", `/v1/boxes/${id}?confirm=true`)).body.box.state).toBe("deleted");
    });

    it("when REST is called without a key or without the scope, then 401 and 403 insufficient_scope", async () => {
      expect((await restClient(stack.baseUrl, undefined)("GET", "/v1/boxes")).status).toBe(401);
      const reader = restClient(stack.baseUrl, await stack.createKey({ scopes: ["boxes:read"] }));
      const denied = await reader<{ error: { code: string; details: { requiredScope: string } } }>("POST", `/v1/boxes/${box.id}/exec`, {
        cmd: "true",
      });
      expect(denied.status).toBe(403);
      expect(denied.body.error.details.requiredScope).toBe("boxes:exec");
      expect((await reader<{ box: Box }>("GET", `/v1/boxes/${box.id}`)).body.box.id).toBe(box.id);
    });
  });
});
