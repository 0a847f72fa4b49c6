/**
 * `/metrics` cannot be grown or read by anyone: a tool name the catalog does not know is counted as `<unknown>`
 * (made-up names would each add series), a tool name longer than 64 characters is refused at the edge, the
 * Host check applies as on every API of ours, and a metrics token (BANCADA_METRICS_TOKEN) closes it — in
 * production it is not served at all without one.
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool, connectClient, startStack, type ErrorData, type Stack } from "@bancada/e2e";
import { echoFactory } from "./fixtures.js";

function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("metrics in development", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ services: { echo: echoFactory } });
  });
  afterAll(async () => stack?.stop());

  it("when a key calls 100 made-up tool names, then metrics count them as <unknown> and name none of them", async () => {
    const client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: ["docs:read"] }));
    const before = (await (await fetch(`${stack.baseUrl}/metrics`)).text()).length;
    for (let i = 0; i < 100; i++) {
      const made = await callTool<ErrorData>(client, `made_up_${i}_${"x".repeat(48)}`.slice(0, 64), {});
      expect(made.data.error.code).toBe("not_found");
    }
    expect((await callTool(client, "echo", { message: "hi" })).isError).toBe(false);
    await client.close();
    const metrics = await (await fetch(`${stack.baseUrl}/metrics`)).text();
    expect(metrics).not.toContain("made_up_");
    expect(metrics).toMatch(/bancada_tool_calls_total\{tool="<unknown>",outcome="not_found"[^}]*\} 100/);
    expect(metrics).toMatch(/bancada_tool_calls_total\{tool="echo",outcome="ok"/);
    // two series more (count and duration of <unknown>, echo), not 100
    expect(metrics.length - before).toBeLessThan(10_000);
  });

  it("when a tool name is longer than 64 characters, then invalid_argument naming the limit, and nothing is counted", async () => {
    const client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: ["docs:read"] }));
    const long = await callTool<ErrorData>(client, "y".repeat(65), {});
    expect(long.data.error.code).toBe("invalid_argument");
    expect(long.data.error.message).toMatch(/at most 64 characters/);
    const huge = await callTool<ErrorData>(client, "z".repeat(100_000), {});
    expect(huge.data.error.code).toBe("invalid_argument");
    await client.close();
    expect(await (await fetch(`${stack.baseUrl}/metrics`)).text()).not.toContain("yyyy");
  });

  it("when /metrics is asked with a Host this server does not serve, then 403 (DNS rebinding)", async () => {
    expect(await getWithHost(`${stack.baseUrl}/metrics`, "evil.example")).toBe(403);
    expect(await getWithHost(`${stack.baseUrl}/metrics`, "127.0.0.1")).toBe(200);
  });
});

describe("metrics with a token, and in production", () => {
  const token = "metrics-token-of-at-least-24-characters";
  let withToken: Stack;
  let productionWithout: Stack;
  beforeAll(async () => {
    withToken = await startStack({ services: { echo: echoFactory }, gateway: { metricsAccess: { token, production: true } } });
    productionWithout = await startStack({ services: { echo: echoFactory }, gateway: { metricsAccess: { production: true } } });
  });
  afterAll(async () => {
    await withToken?.stop();
    await productionWithout?.stop();
  });

  it("when a metrics token is set, then /metrics answers only a scrape that sends it as a bearer token", async () => {
    const missing = await fetch(`${withToken.baseUrl}/metrics`);
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as ErrorData).error.code).toBe("unauthenticated");
    expect((await fetch(`${withToken.baseUrl}/metrics`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    const scrape = await fetch(`${withToken.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toContain("bancada_catalog_tools");
  });

  it("when production runs without a metrics token, then /metrics is refused saying which variable to set", async () => {
    const refused = await fetch(`${productionWithout.baseUrl}/metrics`);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as ErrorData).error.message).toContain("BANCADA_METRICS_TOKEN");
  });
});
