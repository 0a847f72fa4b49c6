import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { callTool, captureLogs, connectClient, startStack, type Stack } from "@bancada/e2e";
import { echoFactory, scriptsFactory } from "./fixtures.js";

describe("one structured log line per tool call and per REST request", () => {
  const logs = captureLogs("info");
  let stack: Stack;
  let key: string;
  let client: Client;
  const linesWith = (field: string, value: unknown) => logs.lines().filter((line) => line[field] === value);

  beforeAll(async () => {
    stack = await startStack({ services: { echo: echoFactory, scripts: scriptsFactory }, log: logs.log });
    key = await stack.createKey({ agentId: "logging-agent", scopes: ["docs:read", "scripts:read", "scripts:write"] });
    client = await connectClient(stack.mcpUrl, key);
  });
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
  });

  it("when a tool is called, then exactly one line names tool, key, agent, outcome, duration and trace id, and no argument value", async () => {
    expect((await callTool(client, "echo", { message: "argument-value-never-logged" })).isError).toBe(false);
    expect((await callTool(client, "count", { n: 11 })).isError).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [echo, ...more] = linesWith("tool", "echo");
    expect(more).toEqual([]);
    expect(echo).toMatchObject({
      msg: "tool call",
      level: 30,
      svc: "gateway",
      agentId: "logging-agent",
      keyId: expect.stringMatching(/^[\da-f-]{36}$/),
      outcome: "ok",
      durationMs: expect.any(Number),
      traceId: expect.stringMatching(/^[\da-f]{32}$/),
    });
    expect(linesWith("tool", "count")).toEqual([expect.objectContaining({ outcome: "invalid_argument" })]);
    expect(logs.text()).not.toContain("argument-value-never-logged");
  });

  it("when a REST request is made, then one line names the route pattern, key, agent, outcome and the caller's trace id, never the body or query", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e4736aa";
    const headers = {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
    };
    const created = await fetch(`${stack.baseUrl}/v1/scripts`, {
      method: "POST",
      headers,
      body: JSON.stringify({ title: "title-never-logged", text: "text-never-logged" }),
    });
    expect(created.status).toBe(201);
    const { id } = ((await created.json()) as { script: { id: string } }).script;
    expect((await fetch(`${stack.baseUrl}/v1/scripts/${id}`, { headers })).status).toBe(200);
    expect((await fetch(`${stack.baseUrl}/v1/scripts?limit=query-never-logged`, { headers })).status).toBe(400);
    expect((await fetch(`${stack.baseUrl}/v1/scripts`, { headers: { authorization: "Bearer bnc_wrong" } })).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const rest = logs.lines().filter((line) => line.msg === "rest request");
    expect(rest).toEqual([
      expect.objectContaining({ route: "POST /v1/scripts", status: 201, outcome: "ok", agentId: "logging-agent", traceId }),
      expect.objectContaining({ route: "GET /v1/scripts/:id", status: 200, outcome: "ok", keyId: expect.any(String), traceId }),
      expect.objectContaining({ route: "GET /v1/scripts", status: 400, outcome: "invalid_argument" }),
      expect.objectContaining({
        route: "GET /v1/scripts",
        status: 401,
        outcome: "unauthenticated",
        traceId: expect.stringMatching(/^[\da-f]{32}$/),
      }),
    ]);
    for (const line of rest) expect(line.durationMs).toEqual(expect.any(Number));
    for (const secret of ["title-never-logged", "text-never-logged", "query-never-logged", key]) expect(logs.text()).not.toContain(secret);
  });
});
