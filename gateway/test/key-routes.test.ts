/**
 * The caller's own keys (`/v1/session`, `/v1/keys`): one person's keys in one account, never another's; a new key
 * never does more than the key that made it; validation and refusals in the error envelope; revoking stops a key.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool, connectClient, startStack, type ErrorData, type Stack } from "@bancada/e2e";
import { maxActiveKeysPerPerson } from "../src/http/key-routes.js";
import { scriptsFactory } from "./fixtures.js";

type KeyView = { id: string; label: string; scopes: string[]; current: boolean; revokedAt: string | null } & Record<string, unknown>;
const manage = ["scripts:read", "scripts:write", "keys:read", "keys:write"];

describe("the caller's own API keys over REST", () => {
  let stack: Stack;
  let ana: string;
  const call = async <T = Record<string, unknown>>(key: string | null, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as T & ErrorData };
  };
  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory } });
    ana = await stack.createKey({ accountId: "acct-a", personId: "ana", agentId: "console", scopes: manage, allowWrites: true });
  });
  afterAll(async () => stack?.stop());

  it("when no key or an unknown key is sent, then 401 in the error envelope", async () => {
    for (const key of [null, "bnc_unknown"]) {
      const { status, body } = await call(key, "GET", "/v1/session");
      expect(status).toBe(401);
      expect(body.error.code).toBe("unauthenticated");
    }
  });

  it("when a key asks for its session, then it sees its own scopes and record, never a secret, whatever its scopes", async () => {
    const plain = await stack.createKey({
      accountId: "acct-a",
      personId: "ana",
      agentId: "plain",
      scopes: ["scripts:read"],
      allowWrites: false,
    });
    const { status, body } = await call<{ key: KeyView; scopes: string[]; allScopes: string[] }>(plain, "GET", "/v1/session");
    expect(status).toBe(200);
    expect(body).toMatchObject({ accountId: "acct-a", personId: "ana", scopes: ["scripts:read"], allowWrites: false });
    expect(body.key).toMatchObject({ label: "plain", current: true });
    expect(body.allScopes).toEqual(expect.arrayContaining(["keys:read", "keys:write", "boards:read"]));
    expect(JSON.stringify(body)).not.toContain(plain);
    expect(JSON.stringify(body)).not.toMatch(/hash/i);
  });

  it("when keys are listed, then only this person's keys in this account appear (not another person's, not another account's)", async () => {
    await stack.createKey({ accountId: "acct-a", personId: "bob", agentId: "bobs", scopes: manage, allowWrites: true });
    const otherAccount = await stack.createKey({
      accountId: "acct-b",
      personId: "ana",
      agentId: "b-ana",
      scopes: manage,
      allowWrites: true,
    });
    const { body } = await call<{ keys: KeyView[] }>(ana, "GET", "/v1/keys");
    expect(body.keys.map((key) => key.label).sort()).toEqual(["console", "plain"]);
    expect(body.keys.find((key) => key.label === "console")!.current).toBe(true);
    const b = await call<{ keys: KeyView[] }>(otherAccount, "GET", "/v1/keys");
    expect(b.body.keys.map((key) => key.label)).toEqual(["b-ana"]);
    expect(JSON.stringify(body)).not.toMatch(/bnc_[A-Za-z0-9_-]{20,}/);
  });

  it("when a key is created, then its secret is shown once with an MCP client configuration, and it works on /mcp with its scopes", async () => {
    const { status, body } = await call<{ key: string; record: KeyView; mcpClientConfiguration: string }>(ana, "POST", "/v1/keys", {
      label: "laptop",
      scopes: ["scripts:read"],
    });
    expect(status).toBe(201);
    expect(body.record).toMatchObject({
      label: "laptop",
      scopes: ["scripts:read"],
      allowWrites: false,
      allowedBoardIds: null,
      current: false,
    });
    expect(JSON.parse(body.mcpClientConfiguration)).toEqual({
      mcpServers: { bancada: { type: "http", url: `${stack.baseUrl}/mcp`, headers: { Authorization: `Bearer ${body.key}` } } },
    });
    const client = await connectClient(stack.mcpUrl, body.key);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(["get_script", "list_scripts"]);
    await client.close();
    const listed = await call<{ keys: KeyView[] }>(ana, "GET", "/v1/keys");
    expect(JSON.stringify(listed.body)).not.toContain(body.key);
  });

  it("when the new key would do more than the caller's, then permission_denied naming each excess, and nothing is created", async () => {
    const limited = await stack.createKey({
      accountId: "acct-a",
      personId: "ana",
      agentId: "limited",
      scopes: ["scripts:read", "keys:write"],
      allowWrites: true,
      allowedBoardIds: [randomUUID()],
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    const before = (await stack.gateway.keys.list({ accountId: "acct-a", personId: "ana" })).length;
    const { status, body } = await call(limited, "POST", "/v1/keys", {
      label: "stronger",
      scopes: ["scripts:read", "scripts:write"],
      allowWrites: true,
      allowedBoardIds: null,
      expiresAt: null,
    });
    expect(status).toBe(403);
    expect(body.error.code).toBe("permission_denied");
    expect((body.error.details?.issues as { path: string }[]).map((issue) => issue.path)).toEqual([
      "scopes[1]",
      "allowedBoardIds",
      "expiresAt",
    ]);
    const noWrites = await stack.createKey({ accountId: "acct-a", personId: "ana", agentId: "ro", scopes: manage, allowWrites: false });
    expect((await call(noWrites, "POST", "/v1/keys", { label: "x", scopes: ["scripts:read"] })).status).toBe(403);
    expect((await stack.gateway.keys.list({ accountId: "acct-a", personId: "ana" })).length).toBe(before + 1);
  });

  it("when the body is invalid, then 400 invalid_argument with the field's path", async () => {
    const cases: [unknown, string][] = [
      [{ label: "x", scopes: ["root"] }, "scopes[0]"],
      [{ label: "   ", scopes: ["scripts:read"] }, "label"],
      [{ label: "x".repeat(201), scopes: ["scripts:read"] }, "label"],
      [{ label: "x", scopes: [] }, "scopes"],
      [{ label: "x", scopes: ["scripts:read", "scripts:read"] }, "scopes"],
      [{ label: "x", scopes: ["scripts:read"], accountId: "acct-b" }, ""],
      [{ label: "x", scopes: ["scripts:read"], expiresAt: "tomorrow" }, "expiresAt"],
    ];
    for (const [body, path] of cases) {
      const answer = await call(ana, "POST", "/v1/keys", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBe("invalid_argument");
      expect((answer.body.error.details?.issues as { path: string }[])[0]!.path).toBe(path);
    }
    expect((await call(ana, "POST", "/v1/keys", { label: "x".repeat(200), scopes: ["scripts:read"] })).status).toBe(201);
  });

  it("when a key lacks keys:read, then listing is refused with insufficient_scope", async () => {
    const plain = await stack.createKey({ accountId: "acct-a", personId: "ana", agentId: "noscope", scopes: ["scripts:read"] });
    const { status, headers, body } = await call(plain, "GET", "/v1/keys");
    expect(status).toBe(403);
    expect(body.error.details).toMatchObject({ requiredScope: "keys:read" });
    expect(headers.get("www-authenticate")).toContain('scope="keys:read"');
  });

  it("when a key is revoked, then only the owner's key can be, and it stops working on /mcp and REST at once", async () => {
    const bobKey = await stack.createKey({ accountId: "acct-a", personId: "bob", agentId: "bob2", scopes: manage, allowWrites: true });
    const bobs = (await call<{ keys: KeyView[] }>(bobKey, "GET", "/v1/keys")).body.keys;
    const notMine = await call(ana, "POST", `/v1/keys/${bobs[0]!.id}/revoke`);
    expect(notMine.status).toBe(404);
    expect(notMine.body.error.code).toBe("not_found");
    expect((await call(ana, "POST", "/v1/keys/not-a-uuid/revoke")).status).toBe(400);
    const made = await call<{ key: string; record: KeyView }>(ana, "POST", "/v1/keys", { label: "temp", scopes: ["scripts:read"] });
    const client = await connectClient(stack.mcpUrl, made.body.key);
    expect((await callTool(client, "list_scripts", {})).isError).toBe(false);
    await client.close();
    const revoked = await call<{ revoked: string; current: boolean }>(ana, "POST", `/v1/keys/${made.body.record.id}/revoke`);
    expect(revoked.body).toEqual({ revoked: made.body.record.id, current: false });
    await expect(connectClient(stack.mcpUrl, made.body.key)).rejects.toThrow(/unauthenticated/);
    expect((await call(made.body.key, "GET", "/v1/session")).status).toBe(401);
    expect((await call(ana, "POST", `/v1/keys/${made.body.record.id}/revoke`)).status).toBe(404);
    const self = await call<{ current: boolean }>(bobKey, "POST", `/v1/keys/${bobs.find((key) => key.current)!.id}/revoke`);
    expect(self.body.current).toBe(true);
    expect((await call(bobKey, "GET", "/v1/session")).status).toBe(401);
  });

  it(`when a person holds ${maxActiveKeysPerPerson} working keys, then one more is refused until one is revoked`, async () => {
    const carol = await stack.createKey({ accountId: "acct-a", personId: "carol", agentId: "c0", scopes: manage, allowWrites: true });
    for (let i = 1; i < maxActiveKeysPerPerson - 1; i++)
      await stack.createKey({ accountId: "acct-a", personId: "carol", agentId: `c${i}` });
    const last = await call<{ record: KeyView }>(carol, "POST", "/v1/keys", { label: "fiftieth", scopes: ["scripts:read"] });
    expect(last.status).toBe(201);
    const over = await call(carol, "POST", "/v1/keys", { label: "one too many", scopes: ["scripts:read"] });
    expect(over.status).toBe(409);
    expect(over.body.error).toMatchObject({ code: "failed_precondition", details: { limit: maxActiveKeysPerPerson } });
    await call(carol, "POST", `/v1/keys/${last.body.record.id}/revoke`);
    expect((await call(carol, "POST", "/v1/keys", { label: "again", scopes: ["scripts:read"] })).status).toBe(201);
  });

  it("when a browser page of another origin calls, then 403 (the Origin guard covers these routes too)", async () => {
    const response = await fetch(`${stack.baseUrl}/v1/keys`, {
      headers: { authorization: `Bearer ${ana}`, origin: "https://evil.example" },
    });
    expect(response.status).toBe(403);
  });
});
