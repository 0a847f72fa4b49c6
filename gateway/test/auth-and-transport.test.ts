import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool, connectClient, expectRestError, startStack, type ErrorData, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./fixtures.js";

const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

describe("authentication and the HTTP transport", () => {
  let stack: Stack;
  const post = (headers: Record<string, string>, body: unknown = initialize) =>
    fetch(stack.mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    });
  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory }, gateway: { rateLimit: { burst: 3, perSecond: 0.5 } } });
  });
  afterAll(async () => stack?.stop());

  it("when no key is sent, then 401 with the error envelope and a WWW-Authenticate pointing at the resource metadata", async () => {
    const response = await post({});
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer resource_metadata=".*\/\.well-known\/oauth-protected-resource"$/);
    const body = (await response.json()) as ErrorData;
    expect(body.error.code).toBe("unauthenticated");
    const metadata = await fetch(`${stack.baseUrl}/.well-known/oauth-protected-resource`);
    expect(((await metadata.json()) as { resource: string }).resource).toBe(stack.mcpUrl);
  });

  it("when a key is revoked, then the next request is 401 and the SDK client cannot connect", async () => {
    const key = await stack.createKey();
    expect((await post({ authorization: `Bearer ${key}` })).status).toBe(200);
    const [record] = (await stack.gateway.keys.list()).filter((r) => key.startsWith(r.prefix) && !r.revokedAt);
    expect(await stack.gateway.keys.revoke(record!.id)).toBe(true);
    expect((await post({ authorization: `Bearer ${key}` })).status).toBe(401);
    await expect(connectClient(stack.mcpUrl, key)).rejects.toThrow(/unauthenticated/);
  });

  it("when a key has expired or is made up, then 401", async () => {
    const expired = await stack.createKey({ expiresAt: new Date(Date.now() - 1000) });
    expect((await post({ authorization: `Bearer ${expired}` })).status).toBe(401);
    expect((await post({ authorization: "Bearer bnc_not-a-real-key" })).status).toBe(401);
  });

  it("when a browser Origin that is not allowed calls, then 403; a loopback Origin is accepted", async () => {
    const key = await stack.createKey();
    expect((await post({ authorization: `Bearer ${key}`, origin: "https://evil.example" })).status).toBe(403);
    expect((await post({ authorization: `Bearer ${key}`, origin: "http://localhost:3000" })).status).toBe(200);
  });

  it("when the Host header is not a loopback name (DNS rebinding), then 403", async () => {
    const { request } = await import("node:http");
    const url = new URL(stack.mcpUrl);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: "/mcp",
          method: "POST",
          headers: { host: "evil.example", "content-type": "application/json" },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on("error", reject);
      req.end(JSON.stringify(initialize));
    });
    expect(status).toBe(403);
  });

  it("when a REST call comes with a foreign Origin or a foreign Host, then 403 with the error envelope; without Origin (not a browser) it is served", async () => {
    const key = await stack.createKey();
    const rest = (headers: Record<string, string>) =>
      fetch(`${stack.baseUrl}/v1/scripts`, { headers: { authorization: `Bearer ${key}`, ...headers } });
    const foreign = await rest({ origin: "http://127.0.0.1.evil.com" });
    expectRestError({ status: foreign.status, body: await foreign.json() }, 403, "permission_denied");
    expect((await rest({ origin: "http://localhost:5173" })).status).toBe(200);
    expect((await rest({})).status).toBe(200);
    const { request } = await import("node:http");
    const url = new URL(stack.baseUrl);
    const badHost = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: "/v1/scripts",
          headers: { host: "localhost.evil.com", authorization: `Bearer ${key}` },
        },
        (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.end();
    });
    expectRestError({ status: badHost.status, body: JSON.parse(badHost.body) }, 403, "permission_denied");
  });

  it("when no admin token is configured, then the admin API does not exist", async () => {
    expect((await fetch(`${stack.baseUrl}/admin/keys`)).status).toBe(404);
  });

  it("when GET or DELETE /mcp is sent, then 405 (stateless server)", async () => {
    expect((await fetch(stack.mcpUrl)).status).toBe(405);
    expect((await fetch(stack.mcpUrl, { method: "DELETE" })).status).toBe(405);
  });

  it("when health, readiness and metrics are asked, then they answer", async () => {
    expect(await (await fetch(`${stack.baseUrl}/healthz`)).json()).toEqual({ status: "ok" });
    const ready = await fetch(`${stack.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", services: { scripts: true } });
    const client = await connectClient(stack.mcpUrl, await stack.createKey());
    await callTool(client, "list_scripts", {});
    await client.close();
    const metrics = await (await fetch(`${stack.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/bancada_tool_calls_total\{tool="list_scripts",outcome="ok"/);
    expect(metrics).toMatch(/bancada_catalog_tools\{[^}]*\} 6/);
  });

  it("when a key calls faster than its bucket refills, then rate_limited with retryAfterMs", async () => {
    const client = await connectClient(stack.mcpUrl, await stack.createKey());
    const outcomes = [];
    for (let i = 0; i < 5; i++) outcomes.push(await callTool<ErrorData>(client, "list_scripts", {}));
    await client.close();
    expect(outcomes.slice(0, 3).every((o) => !o.isError)).toBe(true);
    const limited = outcomes[3]!;
    expect(limited.data.error.code).toBe("rate_limited");
    expect(limited.data.error.details?.retryAfterMs).toBeGreaterThan(0);
  });

  it("when tool calls are made, then each is in the audit trail without its arguments", async () => {
    const client = await connectClient(stack.mcpUrl, await stack.createKey({ agentId: "auditor" }));
    await callTool(client, "create_script", { title: "secret title", text: "secret text" });
    await client.close();
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    const rows = await stack.gateway.db.toolCall.findMany({ where: { agentId: "auditor" } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ tool: "create_script", outcome: "ok", accountId: "acct-a" });
    expect(JSON.stringify(rows[0], (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v))).not.toContain("secret");
  });
});
