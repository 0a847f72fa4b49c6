/**
 * save_snapshot, list_snapshots and create_box({ snapshotId }) through a real MCP client and real boxes: a snapshot
 * taken while a writer runs holds only whole writes (the box is held still while its disk is copied); boxes made
 * from it carry its files; paging at its edges; the plan's disk quota; tenancy (storage and lookups); REST.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "@bancada/e2e";
import { afterAll, beforeAll, expect, it } from "vitest";
import { snapshotPaths } from "../src/driver/local/disk-copy.js";
import { closeBoxFixture, describeBoxes, openBoxFixture, type BoxFixture } from "./stack.js";
import { allScopes, fails, issuePaths, ok, restClient, run, until, type Box, type Job } from "./helpers.js";

interface Snapshot {
  id: string;
  name: string | null;
  boxId: string;
  state: "creating" | "ready" | "failed" | "deleted";
  stateReason: string | null;
  metadata: Record<string, string>;
  dataGiB: number;
  sizeBytes: number | null;
  copyMethod: string | null;
  durationMs: number | null;
}

const scopes = [...allScopes, "images:read", "images:write"];

/**
 * Appends 4096-byte records (each one write) to log and, every 8 records, replaces state.json through a temporary
 * file and a rename: a consistent copy has a log of whole records in order and a state.json that matches it.
 * About 16 MB/s, until a file named stop appears.
 */
const writer = `python3 - <<'PY'
import json, os, time
log = os.open("log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
i = 0
while True:
    os.write(log, (f"{i:08d}" + "x" * 4087 + "\\n").encode())
    i += 1
    if i % 8 == 0:
        with open("state.tmp", "w") as f:
            json.dump({"records": i, "pad": "y" * 20000}, f)
        os.rename("state.tmp", "state.json")
        if os.path.exists("stop"):
            break
        time.sleep(0.002)
PY`;

/** Checks what the writer left: whole records 0…n-1 in order, state.json whole and not ahead of the log. */
const check = `python3 - <<'PY'
import json, os
data = open("log", "rb").read()
assert len(data) % 4096 == 0, f"partial record: {len(data)} bytes"
n = len(data) // 4096
for i in range(n):
    assert data[i * 4096:i * 4096 + 8] == f"{i:08d}".encode(), f"record {i} out of order"
state = json.load(open("state.json"))
assert state["records"] <= n, "state.json ahead of the log"
assert not os.path.exists("state.tmp") or os.path.getsize("state.tmp") >= 0
print(n, state["records"])
PY`;

describeBoxes("snapshots", () => {
  let fixture: BoxFixture;
  let client: Client;
  let source: Box;

  beforeAll(async () => {
    fixture = await openBoxFixture("snapped");
    await fixture.client.close();
    fixture.key = await fixture.stack.createKey({ scopes });
    fixture.client = client = await connectClient(fixture.stack.mcpUrl, fixture.key);
    source = fixture.box;
  });
  afterAll(() => closeBoxFixture(fixture));

  const account = async (accountId: string, keyScopes = scopes) =>
    connectClient(fixture.stack.mcpUrl, await fixture.stack.createKey({ scopes: keyScopes, accountId }));
  const save = (c: Client, args: Record<string, unknown>) => ok<{ snapshot: Snapshot }>(c, "save_snapshot", args, 90_000);
  const list = (c: Client, args: Record<string, unknown> = {}) =>
    ok<{ snapshots: Snapshot[]; nextCursor: string | null }>(c, "list_snapshots", args);

  it("when a snapshot is taken while a writer runs, then a box made from it holds only whole writes in order, and the writer runs on", async () => {
    const { job } = await ok<{ job: Job }>(client, "start_job", { boxId: source.id, cmd: writer });
    await until(
      () => run(client, source.id, "stat -c %s log 2>/dev/null || echo 0"),
      (r) => Number(r.stdout) > 4096 * 2000,
      30_000,
    );
    const { snapshot } = await save(client, { boxId: source.id, name: "mid-write", metadata: { kind: "tests" } });
    expect(snapshot).toMatchObject({ name: "mid-write", boxId: source.id, state: "ready", dataGiB: 20, metadata: { kind: "tests" } });
    expect(snapshot.copyMethod).toMatch(/^(reflink|copy)$/);
    expect(snapshot.sizeBytes).toBeGreaterThan(4096 * 2000);
    // The saved image is a clean filesystem (frozen, not crashed), in this account's own folder.
    const account = createHash("sha256").update("acct-a").digest("hex").slice(0, 32);
    const image = `${fixture.boxes.dataDir}/snapshots/${account}/${snapshot.id}/disk.img`;
    if (source.enforcement.disk !== null) {
      expect(existsSync(image)).toBe(true);
      execFileSync("e2fsck", ["-f", "-n", image], { stdio: "pipe" });
    }
    expect((await ok<{ job: Job }>(client, "job_wait", { boxId: source.id, jobId: job.id, timeoutSeconds: 1 })).job.status).toBe("running");
    const { box: restored } = await ok(client, "create_box", { name: "restored", snapshotId: snapshot.id }, 120_000);
    expect(restored).toMatchObject({ state: "running", snapshotId: snapshot.id, dataGiB: 20 });
    const checked = await run(client, restored.id, check);
    expect(checked.stderr).toBe("");
    expect(checked.exitCode).toBe(0);
    const [records] = checked.stdout.trim().split(" ").map(Number);
    expect(records).toBeGreaterThan(2000);
    expect((await run(client, restored.id, "hostname")).stdout).toBe("restored\n");
    await run(client, source.id, "touch stop");
    expect((await ok<{ job: Job }>(client, "job_wait", { boxId: source.id, jobId: job.id, timeoutSeconds: 30 })).job.status).toBe(
      "succeeded",
    );
    await ok(client, "delete_box", { boxId: restored.id, confirm: true });
    expect((await ok(client, "get_box", { boxId: source.id })).box).toMatchObject({ state: "running", operation: null });
  });

  it("when a box from a snapshot asks for more disk, then it gets it; with less, the snapshot's size", async ({ skip }) => {
    if (source.enforcement.disk === null) skip("this machine has no loop devices: disks have no size");
    await run(client, source.id, "echo kept > kept.txt");
    const { snapshot } = await save(client, { boxId: source.id });
    const { box: bigger } = await ok(client, "create_box", { snapshotId: snapshot.id, dataGiB: 30 }, 120_000);
    expect(bigger.dataGiB).toBe(30);
    expect((await run(client, bigger.id, "df -B1G --output=size /data/home | tail -1; cat kept.txt")).stdout.trim().split(/\s+/)).toEqual([
      "30",
      "kept",
    ]);
    await ok(client, "delete_box", { boxId: bigger.id, confirm: true });
  });

  it("when a suspended box is saved with wait: false, then the snapshot is creating at once, ready soon, and the box stays suspended", async () => {
    await ok(client, "suspend_box", { boxId: source.id });
    try {
      const { snapshot } = await save(client, { boxId: "snapped", wait: false });
      expect(["creating", "ready"]).toContain(snapshot.state);
      const ready = await until(
        () => list(client, { boxId: source.id, limit: 1 }),
        (r) => r.snapshots[0]?.state === "ready",
        60_000,
      );
      expect(ready.snapshots[0]!.id).toBe(snapshot.id);
      expect((await ok(client, "get_box", { boxId: source.id })).box).toMatchObject({ state: "suspended", operation: null });
    } finally {
      await ok(client, "resume_box", { boxId: source.id });
    }
  });

  it("when list_snapshots pages, then newest first, each once; limit 1 and 100 answer, 0 and 101 and a bad cursor are invalid_argument", async () => {
    const other = (await ok(client, "create_box", { name: "other" })).box;
    const mine = await save(client, { boxId: other.id, name: "of-other" });
    const all = await list(client, { limit: 100 });
    expect(all.snapshots.length).toBe(4);
    expect(all.snapshots[0]!.id).toBe(mine.snapshot.id);
    expect(all.nextCursor).toBeNull();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { snapshots: Snapshot[]; nextCursor: string | null } = await list(client, { limit: 1, ...(cursor ? { cursor } : {}) });
      expect(page.snapshots.length).toBe(1);
      seen.push(page.snapshots[0]!.id);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.snapshots.map((snapshot) => snapshot.id));
    expect((await list(client, { boxId: "other" })).snapshots.map((snapshot) => snapshot.name)).toEqual(["of-other"]);
    expect((await list(client, { boxId: source.id })).snapshots).toHaveLength(3);
    expect((await list(client, {})).snapshots).toHaveLength(4);
    for (const limit of [0, 101, 1.5])
      expect(issuePaths(await fails(client, "list_snapshots", { limit }, "invalid_argument"))).toEqual(["limit"]);
    expect(issuePaths(await fails(client, "list_snapshots", { cursor: "not-a-cursor" }, "invalid_argument"))).toEqual(["cursor"]);
    await fails(client, "list_snapshots", { boxId: "no-such-box" }, "not_found");
    await fails(client, "create_box", { snapshotId: "snap_nosuchsnapshot" }, "not_found");
    // A snapshot outlives its box.
    await ok(client, "delete_box", { boxId: other.id, confirm: true });
    expect((await list(client, { boxId: other.id })).snapshots.map((snapshot) => snapshot.id)).toEqual([mine.snapshot.id]);
  });

  it("when another account names these boxes or snapshots, then not_found everywhere and its list is empty", async () => {
    const outsider = await account("acct-snap-b");
    try {
      const [snapshot] = (await list(client, { limit: 1 })).snapshots;
      await fails(outsider, "save_snapshot", { boxId: source.id }, "not_found");
      await fails(outsider, "save_snapshot", { boxId: "snapped" }, "not_found");
      await fails(outsider, "list_snapshots", { boxId: source.id }, "not_found");
      await fails(outsider, "list_snapshots", { boxId: "snapped" }, "not_found");
      await fails(outsider, "create_box", { snapshotId: snapshot!.id }, "not_found");
      expect((await list(outsider)).snapshots).toEqual([]);
      expect((await ok<{ boxes: Box[] }>(outsider, "list_boxes", { includeDeleted: true })).boxes).toEqual([]);
    } finally {
      await outsider.close();
    }
  });

  it("when snapshots would pass the plan's disk, then failed_precondition names dataGiB; keys without images scopes are refused", async () => {
    const free = await account("acct-snap-quota");
    try {
      const { box: big } = await ok(free, "create_box", { name: "big", dataGiB: 500, wait: false });
      await until(
        () => ok(free, "get_box", { boxId: big.id }),
        (r) => r.box.operation === null,
        60_000,
      );
      await save(free, { boxId: big.id });
      const refused = await fails(free, "save_snapshot", { boxId: big.id }, "failed_precondition");
      expect(refused.details).toMatchObject({ limit: "dataGiB", used: 1000, requested: 500, max: 1000 });
      expect((await list(free)).snapshots).toHaveLength(1);
      expect((await ok(free, "get_box", { boxId: big.id })).box.operation).toBeNull();
      await ok(free, "delete_box", { boxId: big.id, confirm: true });
    } finally {
      await free.close();
    }
    const plain = await account("acct-a", allScopes);
    try {
      expect((await fails(plain, "save_snapshot", { boxId: source.id }, "permission_denied")).details?.requiredScope).toBe("images:write");
      expect((await fails(plain, "list_snapshots", {}, "permission_denied")).details?.requiredScope).toBe("images:read");
    } finally {
      await plain.close();
    }
  });

  it("when the REST routes are used, then they mirror the tools: POST /v1/boxes/:id/snapshots, GET /v1/snapshots", async () => {
    const rest = restClient(fixture.stack.baseUrl, fixture.key);
    const made = await rest<{ snapshot: Snapshot }>("POST", `/v1/boxes/${source.id}/snapshots`, { name: "by-rest" });
    expect([made.status, made.body.snapshot.state, made.body.snapshot.name]).toEqual([201, "ready", "by-rest"]);
    const page = await rest<{ snapshots: Snapshot[]; nextCursor: string | null }>("GET", `/v1/snapshots?boxId=snapped&limit=1`);
    expect(page.status).toBe(200);
    expect(page.body.snapshots.map((snapshot) => snapshot.id)).toEqual([made.body.snapshot.id]);
    const next = await rest<{ snapshots: Snapshot[] }>("GET", `/v1/snapshots?limit=1&cursor=${page.body.nextCursor}`);
    expect(next.body.snapshots).toHaveLength(1);
    expect((await rest("GET", "/v1/snapshots?limit=0")).status).toBe(400);
    expect((await rest("GET", "/v1/snapshots?limit=101")).status).toBe(400);
    const other = restClient(fixture.stack.baseUrl, await fixture.stack.createKey({ scopes, accountId: "acct-snap-rest-b" }));
    expect((await other("POST", `/v1/boxes/${source.id}/snapshots`, {})).status).toBe(404);
    expect((await other<{ snapshots: Snapshot[] }>("GET", "/v1/snapshots")).body.snapshots).toEqual([]);
  });
  it("when a snapshot is deleted over REST, then its files go and nothing finds it; another account's, an unknown one and one a box is being made from are refused", async () => {
    const rest = restClient(fixture.stack.baseUrl, fixture.key);
    const { snapshot } = await save(client, { boxId: source.id, name: "to-delete" });
    const files = snapshotPaths(fixture.boxes.dataDir, { id: snapshot.id, accountId: "acct-a" }).dir;
    expect(existsSync(files)).toBe(true);
    const other = restClient(fixture.stack.baseUrl, await fixture.stack.createKey({ scopes, accountId: "acct-snap-delete-b" }));
    expect((await other("DELETE", `/v1/snapshots/${snapshot.id}`)).status).toBe(404);
    expect((await rest<{ error: { code: string } }>("DELETE", "/v1/snapshots/snap_doesnotexist")).body.error.code).toBe("not_found");
    const readOnly = restClient(fixture.stack.baseUrl, await fixture.stack.createKey({ scopes: ["boxes:read", "images:read"] }));
    expect((await readOnly("DELETE", `/v1/snapshots/${snapshot.id}`)).status).toBe(403);

    // A box being made from it (its setup still running) holds it.
    const { box: making } = await ok(client, "create_box", { snapshotId: snapshot.id, wait: false, setup: { cmd: "sleep 60" } });
    const held = await rest<{ error: { code: string; details: Record<string, unknown> } }>("DELETE", `/v1/snapshots/${snapshot.id}`);
    expect([held.status, held.body.error.code, held.body.error.details.boxId]).toEqual([409, "failed_precondition", making.id]);
    await ok(client, "delete_box", { boxId: making.id, confirm: true });

    const deleted = await rest<{ snapshot: Snapshot & { deletedAt: string | null } }>("DELETE", `/v1/snapshots/${snapshot.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.snapshot).toMatchObject({ id: snapshot.id, state: "deleted", deletedAt: expect.any(String) });
    expect(existsSync(files)).toBe(false);
    expect((await list(client, { limit: 100 })).snapshots.map((item) => item.id)).not.toContain(snapshot.id);
    await fails(client, "create_box", { snapshotId: snapshot.id }, "not_found");
    // Deleting it again answers it as it is.
    const again = await rest<{ snapshot: Snapshot }>("DELETE", `/v1/snapshots/${snapshot.id}`);
    expect([again.status, again.body.snapshot.state]).toEqual([200, "deleted"]);
  });
});
