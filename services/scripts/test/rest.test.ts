/**
 * The REST API (`/v1`): the same use cases as the tools with HTTP semantics (201, ETag/If-Match,
 * Idempotency-Key, 401/403 with WWW-Authenticate), and the change feed followed page by page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, startStack, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./stack.js";
import { expectRestError, issuePaths, marker, ok, restClient, type ListResult, type Rest, type Script } from "./helpers.js";

interface Change {
  seq: number;
  scriptId: string;
  revision: number;
  kind: "created" | "updated" | "trashed" | "restored";
  at: string;
}
type Feed = { changes: Change[]; nextCursor: string };
type One = { script: Script };

describe("REST API", () => {
  let stack: Stack;
  let rest: Rest;

  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory } });
    rest = restClient(stack.baseUrl, await stack.createKey());
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe("scripts", () => {
    let script: Script;

    it("when POST /v1/scripts is called, then 201 with the script and its revision as ETag", async () => {
      const response = await rest<One>("POST", "/v1/scripts", { body: { title: "Via REST", text: "corpo" } });
      expect(response.status).toBe(201);
      expect(response.body.script).toMatchObject({
        title: "Via REST",
        text: "corpo",
        status: "draft",
        revision: 1,
        deletedAt: null,
        createdBy: "person-a",
      });
      expect(response.headers.get("etag")).toBe('"1"');
      script = response.body.script;
    });

    it("when POST /v1/scripts repeats an Idempotency-Key, then the first script comes back; other arguments → 409 idempotency_conflict", async () => {
      const title = marker("rest-idem");
      const key = randomUUID();
      const first = await rest<One>("POST", "/v1/scripts", { body: { title, text: "t" }, headers: { "Idempotency-Key": key } });
      const again = await rest<One>("POST", "/v1/scripts", { body: { title, text: "t" }, headers: { "Idempotency-Key": key } });
      expect(first.status).toBe(201);
      expect([200, 201]).toContain(again.status);
      expect(again.body.script).toEqual(first.body.script);
      expectRestError(
        await rest("POST", "/v1/scripts", { body: { title, text: "other" }, headers: { "Idempotency-Key": key } }),
        409,
        "idempotency_conflict",
      );
      const list = await rest<ListResult>("GET", `/v1/scripts?query=${title}`);
      expect(list.body.scripts.map((item) => item.id)).toEqual([first.body.script.id]);
    });

    it("when GET /v1/scripts/:id is called, then 200 with the script and ETag = revision", async () => {
      const response = await rest<One>("GET", `/v1/scripts/${script.id}`);
      expect(response.status).toBe(200);
      expect(response.body.script).toEqual(script);
      expect(response.headers.get("etag")).toBe('"1"');
      expectRestError(await rest("GET", `/v1/scripts/${randomUUID()}`), 404, "not_found");
      expect(issuePaths(expectRestError(await rest("GET", "/v1/scripts/not-a-uuid"), 400, "invalid_argument"))).toContain("id");
    });

    it("when PUT /v1/scripts/:id sends If-Match with the current revision, then 200 and the next revision as ETag", async () => {
      const response = await rest<One>("PUT", `/v1/scripts/${script.id}`, {
        headers: { "If-Match": '"1"' },
        body: { title: "Editado", text: "novo", status: "review" },
      });
      expect(response.status).toBe(200);
      expect(response.body.script).toMatchObject({ id: script.id, title: "Editado", text: "novo", status: "review", revision: 2 });
      expect(response.headers.get("etag")).toBe('"2"');
      script = response.body.script;
    });

    it("when PUT sends a stale If-Match, then 409 conflict with the saved script in details.current", async () => {
      const response = await rest("PUT", `/v1/scripts/${script.id}`, {
        headers: { "If-Match": '"1"' },
        body: { title: "Perdido", text: "x", status: "draft" },
      });
      const error = expectRestError(response, 409, "conflict");
      expect(error.details?.current).toMatchObject({
        id: script.id,
        revision: 2,
        title: "Editado",
        text: "novo",
        status: "review",
        updatedAt: script.updatedAt,
      });
      expect((await rest<One>("GET", `/v1/scripts/${script.id}`)).body.script).toEqual(script);
    });

    it("when PUT has no If-Match or a malformed one, then 400 invalid_argument naming If-Match", async () => {
      for (const headers of [{}, { "If-Match": "abc" }, { "If-Match": "0" }] as Record<string, string>[]) {
        const error = expectRestError(
          await rest("PUT", `/v1/scripts/${script.id}`, { headers, body: { title: "x", text: "", status: "draft" } }),
          400,
          "invalid_argument",
        );
        expect(issuePaths(error)).toContain("If-Match");
      }
    });

    it("when POST /trash and /restore are called with the current revision, then the script leaves and returns to the active list", async () => {
      const trashed = await rest<One>("POST", `/v1/scripts/${script.id}/trash`, { headers: { "If-Match": '"2"' } });
      expect(trashed.status).toBe(200);
      expect(trashed.body.script.revision).toBe(3);
      expect(trashed.body.script.deletedAt).not.toBeNull();
      expect(trashed.headers.get("etag")).toBe('"3"');
      expectRestError(await rest("POST", `/v1/scripts/${script.id}/trash`, { headers: { "If-Match": '"3"' } }), 409, "failed_precondition");
      expectRestError(
        await rest("PUT", `/v1/scripts/${script.id}`, { headers: { "If-Match": '"3"' }, body: { title: "x", text: "", status: "draft" } }),
        409,
        "failed_precondition",
      );
      expect((await rest<ListResult>("GET", "/v1/scripts?trashed=true")).body.scripts.map((item) => item.id)).toContain(script.id);
      expectRestError(await rest("POST", `/v1/scripts/${script.id}/restore`, { body: { revision: 2 } }), 409, "conflict");
      expectRestError(await rest("POST", `/v1/scripts/${script.id}/restore`), 400, "invalid_argument");
      const restored = await rest<One>("POST", `/v1/scripts/${script.id}/restore`, { body: { revision: 3 } });
      expect(restored.status).toBe(200);
      expect(restored.body.script).toMatchObject({ id: script.id, revision: 4, deletedAt: null });
      expectRestError(
        await rest("POST", `/v1/scripts/${script.id}/restore`, { headers: { "If-Match": '"4"' } }),
        409,
        "failed_precondition",
      );
      const active = await rest<ListResult>("GET", "/v1/scripts?limit=100");
      expect(active.body.scripts.map((item) => item.id)).toContain(script.id);
    });
  });

  describe("authentication and scopes", () => {
    it("when the bearer is missing or invalid, then 401 unauthenticated with WWW-Authenticate", async () => {
      for (const client of [restClient(stack.baseUrl, undefined), restClient(stack.baseUrl, "bnc_not-a-real-key")]) {
        for (const [method, path] of [
          ["GET", "/v1/scripts"],
          ["POST", "/v1/scripts"],
          ["GET", "/v1/changes"],
        ] as const) {
          const response = await client(method, path, method === "POST" ? { body: { title: "x", text: "" } } : {});
          expectRestError(response, 401, "unauthenticated");
          expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
        }
      }
      const basic = await fetch(`${stack.baseUrl}/v1/scripts`, { headers: { Authorization: "Basic dXNlcjpwYXNz" } });
      expect(basic.status).toBe(401);
      expect(basic.headers.get("www-authenticate")).toMatch(/^Bearer/);
    });

    it("when a key without scripts:write writes, then 403 permission_denied naming the scope; reading still works", async () => {
      const readOnly = restClient(stack.baseUrl, await stack.createKey({ scopes: ["scripts:read"] }));
      const response = await readOnly("POST", "/v1/scripts", { body: { title: "x", text: "" } });
      const error = expectRestError(response, 403, "permission_denied");
      expect(error.details?.requiredScope).toBe("scripts:write");
      expect(response.headers.get("www-authenticate")).toContain("insufficient_scope");
      const { body } = await rest<ListResult>("GET", "/v1/scripts?limit=1");
      const id = body.scripts[0]!.id;
      expectRestError(await readOnly("POST", `/v1/scripts/${id}/trash`, { headers: { "If-Match": '"1"' } }), 403, "permission_denied");
      expect((await readOnly("GET", "/v1/scripts")).status).toBe(200);
      expect((await readOnly("GET", "/v1/changes")).status).toBe(200);
    });

    it("when a key lacks scripts:read, or may not write, then 403 permission_denied", async () => {
      const other = restClient(stack.baseUrl, await stack.createKey({ scopes: ["boxes:read"] }));
      expect(expectRestError(await other("GET", "/v1/scripts"), 403, "permission_denied").details?.requiredScope).toBe("scripts:read");
      expectRestError(await other("GET", "/v1/changes"), 403, "permission_denied");
      const noWrites = restClient(stack.baseUrl, await stack.createKey({ allowWrites: false }));
      expectRestError(await noWrites("POST", "/v1/scripts", { body: { title: "x", text: "" } }), 403, "permission_denied");
    });
  });

  describe("change feed", () => {
    let feedKey: string;
    let feed: Rest;
    let client: Client;
    const expected: string[] = [];
    const record = (script: Script, kind: Change["kind"]) => expected.push(`${script.id}:${script.revision}:${kind}`);

    beforeAll(async () => {
      feedKey = await stack.createKey({ accountId: "acct-feed", personId: "person-feed" });
      feed = restClient(stack.baseUrl, feedKey);
      client = await connectClient(stack.mcpUrl, feedKey);
    });
    afterAll(async () => {
      await client?.close();
    });

    /** Follows the feed from `cursor` in pages of 3 until `count` changes were seen (or the deadline passes). */
    async function follow(count: () => number, deadlineMs = 20_000): Promise<Change[]> {
      const seen: Change[] = [];
      let cursor = "0";
      const until = Date.now() + deadlineMs;
      while (seen.length < count() && Date.now() < until) {
        const { status, body } = await feed<Feed>("GET", `/v1/changes?after=${cursor}&limit=3`);
        expect(status).toBe(200);
        expect(body.changes.length).toBeLessThanOrEqual(3);
        expect(body.nextCursor).toBe(body.changes.length ? String(body.changes.at(-1)!.seq) : cursor);
        seen.push(...body.changes);
        cursor = body.nextCursor;
        if (body.changes.length === 0) await sleep(5);
      }
      return seen;
    }

    function expectExactlyOnce(changes: Change[]): void {
      expect(changes.map((change) => change.seq)).toEqual(Array.from({ length: changes.length }, (_, i) => i + 1));
      expect(changes.map((change) => `${change.scriptId}:${change.revision}:${change.kind}`).sort()).toEqual([...expected].sort());
      const lastRevision = new Map<string, number>();
      for (const change of changes) {
        expect(change.revision).toBe((lastRevision.get(change.scriptId) ?? 0) + 1);
        lastRevision.set(change.scriptId, change.revision);
        expect(new Date(change.at).toISOString()).toBe(change.at);
      }
    }

    it("when creates, 20 concurrent updates, trash and restore happen while a client follows the feed, then it sees each change exactly once, in order", async () => {
      let writing = true;
      const total = () => (writing ? Number.POSITIVE_INFINITY : expected.length);
      const follower = follow(total);

      const created = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const response = await feed<One>("POST", "/v1/scripts", { body: { title: `feed ${i}`, text: "v1" } });
          expect(response.status).toBe(201);
          return response.body.script;
        }),
      );
      created.forEach((script) => record(script, "created"));
      const updated = await Promise.all(
        created.map(
          async (script) =>
            (await ok(client, "update_script", { id: script.id, revision: 1, title: script.title, text: "v2", status: "ready" })).script,
        ),
      );
      updated.forEach((script) => record(script, "updated"));
      for (const script of updated.slice(0, 5)) {
        const trashed = await feed<One>("POST", `/v1/scripts/${script.id}/trash`, { headers: { "If-Match": `"${script.revision}"` } });
        expect(trashed.status).toBe(200);
        record(trashed.body.script, "trashed");
      }
      for (const script of updated.slice(0, 3)) {
        const { script: restored } = await ok(client, "restore_script", { id: script.id, revision: 3 });
        record(restored, "restored");
        const again = await feed<One>("PUT", `/v1/scripts/${script.id}`, {
          headers: { "If-Match": `"${restored.revision}"` },
          body: { title: "again", text: "v3", status: "completed" },
        });
        expect(again.status).toBe(200);
        record(again.body.script, "updated");
      }
      writing = false;
      expect(expected).toHaveLength(20 + 20 + 5 + 3 + 3);

      const live = await follower;
      expectExactlyOnce(live);
      const replay = await follow(() => expected.length);
      expect(replay).toEqual(live);
    });

    it("when the cursor is at or past the end, then the page is empty and nextCursor equals the cursor passed", async () => {
      const last = expected.length;
      for (const after of [last, last + 7]) {
        const { status, body } = await feed<Feed>("GET", `/v1/changes?after=${after}&limit=3`);
        expect(status).toBe(200);
        expect(body).toEqual({ changes: [], nextCursor: String(after) });
      }
      const { body } = await feed<Feed>("GET", `/v1/changes?after=${last - 1}&limit=3`);
      expect(body.changes.map((change) => change.seq)).toEqual([last]);
      expect(body.nextCursor).toBe(String(last));
    });

    it("when the feed gets a bad cursor or limit, then 400 invalid_argument", async () => {
      for (const search of ["after=-1", "after=abc", "limit=0", "limit=1001"]) {
        expectRestError(await feed("GET", `/v1/changes?${search}`), 400, "invalid_argument");
      }
    });
  });
});
