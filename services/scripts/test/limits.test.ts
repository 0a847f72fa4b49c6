/**
 * Every limit of docs/scripts.md at its edge (N passes, N+1 fails), through a real MCP client and the gateway,
 * plus the same limits on the REST API. Error results must carry the envelope of docs/errors.md.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { callTool, connectClient, startStack, type ErrorData, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./stack.js";
import { expectRestError, fails, issuePaths, ok, restClient, type ListResult, type Rest, type Script } from "./helpers.js";

describe("scripts limits", () => {
  let stack: Stack;
  let client: Client;
  let rest: Rest;
  let existing: Script;

  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory } });
    const key = await stack.createKey();
    client = await connectClient(stack.mcpUrl, key);
    rest = restClient(stack.baseUrl, key);
    existing = (await ok(client, "create_script", { title: "Existing", text: "Body" })).script;
  });
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
  });

  const update = (changes: Record<string, unknown>) => ({
    id: existing.id,
    revision: existing.revision,
    title: "T",
    text: "X",
    status: "draft",
    ...changes,
  });

  describe("title", () => {
    it("when the title has 160 characters, then the script is created with the whole title", async () => {
      const { script } = await ok(client, "create_script", { title: "t".repeat(160), text: "" });
      expect(script.title).toHaveLength(160);
    });

    it("when the title has 161 characters, then invalid_argument names title", async () => {
      const error = await fails(client, "create_script", { title: "t".repeat(161), text: "" }, "invalid_argument");
      expect(issuePaths(error)).toContain("title");
    });

    it("when the title is empty, then invalid_argument names title", async () => {
      const error = await fails(client, "create_script", { title: "", text: "x" }, "invalid_argument");
      expect(issuePaths(error)).toContain("title");
    });

    it("when the title is only spaces, tabs or newlines, then invalid_argument names title on create and update (every service refuses blank titles)", async () => {
      for (const title of [" ", "   ", "\t\n"]) {
        expect(issuePaths(await fails(client, "create_script", { title, text: "x" }, "invalid_argument"))).toEqual(["title"]);
        expect(issuePaths(await fails(client, "update_script", update({ title }), "invalid_argument"))).toEqual(["title"]);
      }
      expect((await ok(client, "create_script", { title: " a ", text: "" })).script.title).toBe(" a ");
    });

    it("when update_script gets a 161-character or empty title, then invalid_argument names title and the script is unchanged", async () => {
      expect(issuePaths(await fails(client, "update_script", update({ title: "t".repeat(161) }), "invalid_argument"))).toContain("title");
      expect(issuePaths(await fails(client, "update_script", update({ title: "" }), "invalid_argument"))).toContain("title");
      const { script } = await ok(client, "get_script", { id: existing.id });
      expect(script).toEqual(existing);
    });
  });

  describe("text", () => {
    it("when the text has 100,000 characters, then it is saved and read back whole", async () => {
      const text = "abcdefghij".repeat(10_000);
      const { script } = await ok(client, "create_script", { title: "Long", text });
      expect(script.text).toHaveLength(100_000);
      const read = await ok(client, "get_script", { id: script.id });
      expect(read.script.text).toBe(text);
    });

    it("when the text has 100,001 characters, then payload_too_large names text", async () => {
      const error = await fails(client, "create_script", { title: "Too long", text: "a".repeat(100_001) }, "payload_too_large");
      expect(issuePaths(error)).toContain("text");
    });

    it("when update_script gets a 100,001-character text, then payload_too_large names text", async () => {
      const error = await fails(client, "update_script", update({ text: "a".repeat(100_001) }), "payload_too_large");
      expect(issuePaths(error)).toContain("text");
    });
  });

  describe("list_scripts paging and query", () => {
    it("when the query has 160 characters, then the list answers; with 161, invalid_argument names query", async () => {
      const result = await ok<ListResult>(client, "list_scripts", { query: "q".repeat(160) });
      expect(result.scripts).toEqual([]);
      const error = await fails(client, "list_scripts", { query: "q".repeat(161) }, "invalid_argument");
      expect(issuePaths(error)).toContain("query");
    });

    it("when limit is 0 or 101, then invalid_argument names limit", async () => {
      for (const limit of [0, 101]) {
        expect(issuePaths(await fails(client, "list_scripts", { limit }, "invalid_argument"))).toContain("limit");
      }
    });

    it("when limit is 1 or 100, then a page of at most that size comes back", async () => {
      const one = await ok<ListResult>(client, "list_scripts", { limit: 1 });
      expect(one.scripts).toHaveLength(1);
      expect(one.hasMore).toBe(true);
      const hundred = await ok<ListResult>(client, "list_scripts", { limit: 100 });
      expect(hundred.scripts.length).toBeGreaterThan(1);
      expect(hundred.scripts.length).toBeLessThanOrEqual(100);
    });

    it("when offset is 100,000, then an empty last page comes back; with 100,001, invalid_argument names offset", async () => {
      const page = await ok<ListResult>(client, "list_scripts", { offset: 100_000 });
      expect(page).toEqual({ scripts: [], hasMore: false, nextOffset: null });
      expect(issuePaths(await fails(client, "list_scripts", { offset: 100_001 }, "invalid_argument"))).toContain("offset");
      expect(issuePaths(await fails(client, "list_scripts", { offset: -1 }, "invalid_argument"))).toContain("offset");
    });
  });

  describe("shape of the arguments", () => {
    it("when an unknown field is sent, then invalid_argument names that field", async () => {
      expect(issuePaths(await fails(client, "create_script", { title: "T", text: "X", colour: 1 }, "invalid_argument"))).toContain(
        "colour",
      );
      expect(issuePaths(await fails(client, "list_scripts", { colour: "red" }, "invalid_argument"))).toContain("colour");
      expect(issuePaths(await fails(client, "get_script", { id: existing.id, colour: 1 }, "invalid_argument"))).toContain("colour");
    });

    it("when a field has the wrong type or value, then invalid_argument names the field", async () => {
      expect(issuePaths(await fails(client, "list_scripts", { limit: "5" }, "invalid_argument"))).toContain("limit");
      expect(issuePaths(await fails(client, "list_scripts", { trashed: "yes" }, "invalid_argument"))).toContain("trashed");
      expect(issuePaths(await fails(client, "create_script", { title: 7, text: "X" }, "invalid_argument"))).toContain("title");
      expect(
        issuePaths(await fails(client, "create_script", { title: "T", text: "X", status: "published" }, "invalid_argument")),
      ).toContain("status");
      expect(issuePaths(await fails(client, "list_scripts", { status: "published" }, "invalid_argument"))).toContain("status");
      expect(
        issuePaths(await fails(client, "create_script", { title: "T", text: "X", idempotencyKey: "not-a-uuid" }, "invalid_argument")),
      ).toContain("idempotencyKey");
      expect(issuePaths(await fails(client, "get_script", { id: "not-a-uuid" }, "invalid_argument"))).toContain("id");
    });

    it("when update_script has no revision, then invalid_argument names revision", async () => {
      const { revision: _omitted, ...args } = update({});
      expect(issuePaths(await fails(client, "update_script", args, "invalid_argument"))).toContain("revision");
    });

    it("when a revision is 0 or not an integer, then invalid_argument names revision", async () => {
      expect(issuePaths(await fails(client, "trash_script", { id: existing.id, revision: 0 }, "invalid_argument"))).toContain("revision");
      expect(issuePaths(await fails(client, "restore_script", { id: existing.id, revision: 1.5 }, "invalid_argument"))).toContain(
        "revision",
      );
    });

    it("when a revision is beyond any stored revision (2^31), then the call fails cleanly (conflict or invalid_argument), never internal", async () => {
      for (const [tool, args] of [
        ["update_script", update({ revision: 2 ** 31 })],
        ["trash_script", { id: existing.id, revision: 2 ** 31 }],
      ] as const) {
        const outcome = await callTool<ErrorData>(client, tool, args);
        expect(outcome.isError).toBe(true);
        expect(["conflict", "invalid_argument"], `${tool}: ${outcome.text.slice(0, 200)}`).toContain(outcome.data.error.code);
      }
      const response = await rest("PUT", `/v1/scripts/${existing.id}`, {
        headers: { "If-Match": String(2 ** 31) },
        body: { title: "T", text: "X", status: "draft" },
      });
      expect([400, 409], JSON.stringify(response.body).slice(0, 200)).toContain(response.status);
    });

    it("when a title or query contains a NUL character, then invalid_argument (not internal) names the field", async () => {
      expect(issuePaths(await fails(client, "create_script", { title: "a\u0000b", text: "X" }, "invalid_argument"))).toContain("title");
      expect(issuePaths(await fails(client, "list_scripts", { query: "a\u0000b" }, "invalid_argument"))).toContain("query");
    });
  });

  describe("REST API", () => {
    it("when POST /v1/scripts gets a 161-character title, then 400 invalid_argument names title", async () => {
      const response = await rest("POST", "/v1/scripts", { body: { title: "t".repeat(161), text: "" } });
      expect(issuePaths(expectRestError(response, 400, "invalid_argument"))).toContain("title");
    });

    it("when POST /v1/scripts gets 160 characters of title and 100,000 of text, then 201", async () => {
      const response = await rest<{ script: Script }>("POST", "/v1/scripts", {
        body: { title: "t".repeat(160), text: "x".repeat(100_000) },
      });
      expect(response.status).toBe(201);
      expect(response.body.script.text).toHaveLength(100_000);
    });

    it("when POST /v1/scripts gets a 100,001-character text, then 413 payload_too_large names text", async () => {
      const response = await rest("POST", "/v1/scripts", { body: { title: "T", text: "x".repeat(100_001) } });
      expect(issuePaths(expectRestError(response, 413, "payload_too_large"))).toContain("text");
    });

    it("when PUT /v1/scripts/:id gets a 161-character title, then 400 invalid_argument names title", async () => {
      const response = await rest("PUT", `/v1/scripts/${existing.id}`, {
        headers: { "If-Match": `"${existing.revision}"` },
        body: { title: "t".repeat(161), text: "X", status: "draft" },
      });
      expect(issuePaths(expectRestError(response, 400, "invalid_argument"))).toContain("title");
    });

    it("when GET /v1/scripts gets limit 0 or 101, query of 161, or an unknown status, then 400 invalid_argument names the field", async () => {
      for (const [search, field] of [
        ["limit=0", "limit"],
        ["limit=101", "limit"],
        [`query=${"q".repeat(161)}`, "query"],
        ["status=published", "status"],
      ] as const) {
        expect(issuePaths(expectRestError(await rest("GET", `/v1/scripts?${search}`), 400, "invalid_argument"))).toContain(field);
      }
      expect((await rest("GET", `/v1/scripts?limit=100&query=${"q".repeat(160)}`)).status).toBe(200);
    });

    it("when GET /v1/scripts gets offset 100,000, then 200; with 100,001, then 400 invalid_argument (an offset is not a payload size)", async () => {
      expect((await rest("GET", "/v1/scripts?offset=100000")).status).toBe(200);
      const response = await rest("GET", "/v1/scripts?offset=100001");
      expect(issuePaths(expectRestError(response, 400, "invalid_argument"))).toContain("offset");
    });
  });
});
