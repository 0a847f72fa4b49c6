import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool, connectClient, startStack, type ErrorData, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./fixtures.js";

const adminToken = "admin-token-for-tests-0123456789";

describe("the admin REST API for keys", () => {
  let stack: Stack;
  const admin = (path: string, init: RequestInit = {}, token = adminToken) =>
    fetch(`${stack.baseUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers },
    });
  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory }, gateway: { adminToken } });
  });
  afterAll(async () => stack?.stop());

  it("when a key is created over REST, then it works on /mcp with exactly its scopes, and revoking it stops it", async () => {
    const created = await admin("/admin/keys", {
      method: "POST",
      body: JSON.stringify({ accountId: "acct-rest", personId: "p", agentId: "bot", scopes: ["scripts:read"] }),
    });
    expect(created.status).toBe(201);
    const { key, id, allowWrites } = (await created.json()) as { key: string; id: string; allowWrites: boolean };
    expect(allowWrites).toBe(false);
    const client = await connectClient(stack.mcpUrl, key);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(["get_script", "list_scripts"]);
    expect((await callTool(client, "list_scripts", {})).isError).toBe(false);
    await client.close();
    const listed = (await (await admin("/admin/keys?accountId=acct-rest")).json()) as { keys: { id: string }[] };
    expect(listed.keys.map((k) => k.id)).toEqual([id]);
    expect((await admin(`/admin/keys/${id}/revoke`, { method: "POST" })).status).toBe(200);
    await expect(connectClient(stack.mcpUrl, key)).rejects.toThrow(/unauthenticated/);
    expect((await admin(`/admin/keys/${id}/revoke`, { method: "POST" })).status).toBe(404);
  });

  it("when the admin token is wrong or a scope is unknown, then 401 or 400 with the error envelope", async () => {
    const wrong = await admin("/admin/keys", {}, "not-the-token");
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as ErrorData).error.code).toBe("unauthenticated");
    const bad = await admin("/admin/keys", {
      method: "POST",
      body: JSON.stringify({ accountId: "a", personId: "p", agentId: "x", scopes: ["root"] }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorData).error.details?.issues).toEqual([expect.objectContaining({ path: "scopes[0]" })]);
  });
});
