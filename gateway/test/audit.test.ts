import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { callTool, connectClient, startStack, type ErrorData, type Stack } from "@bancada/e2e";
import { z } from "zod";
import { auditPageSchema } from "../src/audit-query.js";
import { echoFactory } from "./fixtures.js";

// the page is read with the route's declared answer, strict: a field missing, mistyped or undeclared fails here
const auditPage = auditPageSchema.extend({ calls: z.array(auditPageSchema.shape.calls.element.strict()) }).strict();
type AuditPage = z.infer<typeof auditPage>;

describe("GET /v1/audit", () => {
  let stack: Stack;
  let keyA: string;
  let keyB: string;
  const clients: Client[] = [];
  const audit = (query: string, key: string | undefined) =>
    fetch(`${stack.baseUrl}/v1/audit${query}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  const page = async (query: string, key: string) => {
    const response = await audit(query, key);
    expect(response.status).toBe(200);
    return auditPage.parse(await response.json());
  };

  beforeAll(async () => {
    stack = await startStack({ services: { echo: echoFactory } });
    keyA = await stack.createKey({ accountId: "acct-a", agentId: "agent-a", scopes: ["docs:read", "audit:read"] });
    keyB = await stack.createKey({ accountId: "acct-b", agentId: "agent-b", scopes: ["docs:read", "audit:read"] });
    const a = await connectClient(stack.mcpUrl, keyA);
    const b = await connectClient(stack.mcpUrl, keyB);
    clients.push(a, b);
    for (let i = 0; i < 3; i++) expect((await callTool(a, "echo", { message: `secret-argument-${i}` })).isError).toBe(false);
    expect((await callTool(a, "slow_echo", { ms: 1 })).isError).toBe(false);
    expect((await callTool(a, "echo", { message: "x".repeat(51) })).isError).toBe(true);
    expect((await callTool(b, "echo", { message: "b-only" })).isError).toBe(false);
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await stack?.stop();
  });

  it("when an account reads its audit, then it sees its own calls newest first, with outcome and duration, never arguments", async () => {
    const response = await audit("", keyA);
    const text = await response.text();
    expect(text).not.toContain("secret-argument");
    const { calls, nextCursor } = auditPage.parse(JSON.parse(text));
    expect(nextCursor).toBeNull();
    expect(calls.map((c) => [c.tool, c.outcome])).toEqual([
      ["echo", "invalid_argument"],
      ["slow_echo", "ok"],
      ["echo", "ok"],
      ["echo", "ok"],
      ["echo", "ok"],
    ]);
    for (const call of calls) {
      expect(call).toMatchObject({ accountId: "acct-a", agentId: "agent-a", keyId: expect.any(String) });
      expect(call.durationMs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(call.at)).toBeGreaterThan(Date.now() - 60_000);
    }
  });

  it("when account B reads its audit, then nothing of account A's appears, whatever the filters", async () => {
    for (const query of ["", "?tool=slow_echo", "?since=1h", "?limit=500"]) {
      const { calls } = await page(query, keyB);
      expect(calls.every((c) => c.accountId === "acct-b")).toBe(true);
    }
    expect((await page("", keyB)).calls.map((c) => c.tool)).toEqual(["echo"]);
    // a cursor taken from A's pages still reads only B's rows
    const a = await page("?limit=1", keyA);
    expect((await page(`?cursor=${a.nextCursor}`, keyB)).calls.every((c) => c.accountId === "acct-b")).toBe(true);
  });

  it("when filtered by tool, since, or paged with limit and cursor, then each page continues where the last stopped", async () => {
    expect((await page("?tool=slow_echo", keyA)).calls.map((c) => c.tool)).toEqual(["slow_echo"]);
    expect((await page("?since=30m", keyA)).calls).toHaveLength(5);
    expect((await page(`?since=${new Date(Date.now() + 60_000).toISOString()}`, keyA)).calls).toHaveLength(0);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const next: AuditPage = await page(`?limit=2${cursor ? `&cursor=${cursor}` : ""}`, keyA);
      expect(next.calls.length).toBeLessThanOrEqual(2);
      seen.push(...next.calls.map((c) => c.id));
      cursor = next.nextCursor;
    } while (cursor);
    expect(seen).toEqual((await page("", keyA)).calls.map((c) => c.id));
  });

  it("when filtered by agent, outcome or a time range (since … until), then only those calls come, still within the account", async () => {
    expect((await page("?outcome=invalid_argument", keyA)).calls.map((c) => [c.tool, c.outcome])).toEqual([["echo", "invalid_argument"]]);
    expect((await page("?agent=agent-a&outcome=ok", keyA)).calls).toHaveLength(4);
    // another account's agent is never found through the filter
    expect((await page("?agent=agent-b", keyA)).calls).toEqual([]);
    const all = (await page("", keyA)).calls;
    const oldest = all.at(-1)!;
    expect((await page(`?until=${encodeURIComponent(oldest.at)}`, keyA)).calls).toEqual([]);
    const through = new Date(Date.parse(oldest.at) + 1).toISOString();
    expect((await page(`?since=${encodeURIComponent(oldest.at)}&until=${through}`, keyA)).calls.map((c) => c.id)).toContain(oldest.id);
    for (const query of ["?until=tomorrow", "?agent=", "?outcome="]) {
      const response = await audit(query, keyA);
      expect(response.status, query).toBe(400);
      expect(JSON.stringify(((await response.json()) as ErrorData).error.details)).toContain(query.slice(1).split("=")[0]!);
    }
  });

  it("when the query is wrong, then 400 naming the parameter; at the edges, limit 500 and since 1970-01-01 pass, 501 and anything earlier (year 0) do not", async () => {
    for (const [query, path] of [
      ["?since=yesterday", "since"],
      ["?since=0000-01-01T00:00:00Z", "since"],
      ["?since=1969-12-31T23:59:59Z", "since"],
      ["?since=999999d", "since"],
      ["?limit=0", "limit"],
      ["?limit=501", "limit"],
      ["?cursor=abc", "cursor"],
      ["?arguments=1", "arguments"],
    ] as const) {
      const response = await audit(query, keyA);
      expect(response.status, query).toBe(400);
      const body = (await response.json()) as ErrorData;
      expect(body.error.code).toBe("invalid_argument");
      expect(JSON.stringify(body.error.details)).toContain(path);
    }
    expect((await audit("?limit=500", keyA)).status).toBe(200);
    expect((await audit("?since=1970-01-01T00:00:00Z", keyA)).status).toBe(200);
  });

  it("when the key is missing or lacks audit:read, then 401 or 403 with the error envelope", async () => {
    const missing = await audit("", undefined);
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as ErrorData).error.code).toBe("unauthenticated");
    const noScope = await audit("", await stack.createKey({ accountId: "acct-a", scopes: ["docs:read"] }));
    expect(noScope.status).toBe(403);
    expect(noScope.headers.get("www-authenticate")).toContain('scope="audit:read"');
  });
});
