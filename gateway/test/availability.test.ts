import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { abandonableCall, callTool, connectClient, startStack, type ErrorData, type Stack } from "@bancada/e2e";
import { echoFactory, scriptsFactory, slowCalls, waitCalls } from "./fixtures.js";

describe("a service that stops, a call past its deadline", () => {
  let stack: Stack;
  let client: Client;
  beforeAll(async () => {
    stack = await startStack({ services: { scripts: scriptsFactory, echo: echoFactory }, gateway: { deadlineMarginMs: 200 } });
    client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: ["scripts:read", "scripts:write", "docs:read"] }));
  });
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
  });

  it("when the scripts service stops mid-run, then its tools answer unavailable while tools/list and the other service keep working", async () => {
    expect((await callTool(client, "list_scripts", {})).isError).toBe(false);
    await stack.stopService("scripts");
    const down = await callTool<ErrorData>(client, "list_scripts", {});
    expect(down.isError).toBe(true);
    expect(down.data.error.code).toBe("unavailable");
    expect(down.data.error.details?.service).toBe("scripts");
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("get_script");
    expect((await callTool(client, "echo", { message: "still here" })).data).toEqual({ message: "still here" });
    const ready = await fetch(`${stack.baseUrl}/readyz`);
    expect(ready.status).toBe(503);

    await stack.startService("scripts");
    expect((await callTool(client, "list_scripts", {})).isError).toBe(false);
  });

  it("when a call runs past the tool's maximum duration plus the margin, then deadline_exceeded and the service's call is aborted", async () => {
    const started = Date.now();
    const result = await callTool<ErrorData>(client, "slow_echo", { ms: 2_000 });
    expect(result.data.error.code).toBe("deadline_exceeded");
    expect(Date.now() - started).toBeLessThan(1_500);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(slowCalls.at(-1)?.aborted).toBe(true);
  });

  it("when arguments fail the input schema, then the gateway answers invalid_argument before the call crosses the bus", async () => {
    const result = await callTool<ErrorData>(client, "echo", { message: "x".repeat(51), extra: true });
    expect(result.data.error.code).toBe("invalid_argument");
    const paths = (result.data.error.details?.issues as { path: string }[]).map((issue) => issue.path).sort();
    expect(paths).toEqual(["extra", "message"]);
  });

  it("when the client sends a progressToken, then the service's progress reaches it as notifications/progress", async () => {
    const updates: { progress: number; total?: number; message?: string }[] = [];
    const result = await client.callTool({ name: "count", arguments: { n: 3 } }, undefined, {
      onprogress: (update) => updates.push(update),
    });
    expect(result.structuredContent).toEqual({ counted: 3 });
    expect(updates).toEqual([
      { progress: 1, total: 3, message: "step 1" },
      { progress: 2, total: 3, message: "step 2" },
      { progress: 3, total: 3, message: "step 3" },
    ]);
  });

  it("when the HTTP client goes away mid-call, then the service's call is cancelled", async () => {
    const key = await stack.createKey({ scopes: ["docs:read"] });
    const before = waitCalls.length;
    const call = abandonableCall(stack.mcpUrl, key, "wait", { ms: 8_000 });
    await waitFor(() => waitCalls.length > before);
    await call.abandon();
    await waitFor(() => waitCalls.at(-1)!.aborted);
    expect(waitCalls.at(-1)!.aborted).toBe(true);
  });

  it("when the client sends notifications/cancelled for a call, then the call is cancelled even though it ran on another request", async () => {
    const before = waitCalls.length;
    const controller = new AbortController();
    const pending = client.callTool({ name: "wait", arguments: { ms: 8_000 } }, undefined, { signal: controller.signal });
    await waitFor(() => waitCalls.length > before);
    controller.abort("user pressed stop");
    await expect(pending).rejects.toThrow();
    await waitFor(() => waitCalls.at(-1)!.aborted);
    expect(waitCalls.at(-1)!.aborted).toBe(true);
  });
});

describe("a call that runs longer than the bus's silence limit", () => {
  let stack: Stack;
  let client: Client;
  beforeAll(async () => {
    stack = await startStack({ services: { echo: echoFactory } });
    client = await connectClient(stack.mcpUrl, await stack.createKey({ scopes: ["docs:read"] }));
  });
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
  });

  // a replica killed mid-call: bus-outage.test.ts, with a service process of its own
  it("when the replica keeps running the call, then its heartbeats keep the call alive past the silence limit", async () => {
    const started = Date.now();
    const result = await callTool<{ waited: number }>(client, "wait", { ms: 4_000 });
    expect(result.isError).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
