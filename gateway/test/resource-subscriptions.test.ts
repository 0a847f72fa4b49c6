/**
 * 2025-era resource subscriptions (docs/gateway.md#resource-subscriptions) on the real stack (Postgres, NATS when
 * NATS_URL is set): a 1.x SDK Client subscribes over HTTP — its requests alternating between two gateway replicas,
 * so the subscription is recorded on one and its update stream is held by either — or over stdio, and hears
 * `notifications/resources/updated` when the service says the resource changed: the conformance fixture's watched
 * resource, and a real script edited through the scripts service. Another account's client subscribed to the same
 * URI hears nothing of it; a URI the key may not read, or a subscription without a session, is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as V1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Gateway } from "@bancada/gateway";
import type { Stack } from "@bancada/e2e";
import { startTwoReplicas, type TwoReplicas } from "./fixtures/two-replicas.js";
import { stdioParams } from "./mcp-clients.js";

const watched = "test://watched-resource";

let replicas: TwoReplicas;
let stack: Stack;
let second: Gateway;
let secondUrl: string;
let alternatingUrl: string;
let key: string;
let otherAccountKey: string;

beforeAll(async () => {
  replicas = await startTwoReplicas(
    ["scripts", "conformance"],
    (replica) => replica.catalog.resources().length > 0 && Boolean(replica.catalog.tool("update_script")),
  );
  ({ stack, second, url: alternatingUrl, secondUrl } = replicas);
  key = await stack.createKey({ scopes: ["docs:read", "scripts:read", "scripts:write"] });
  otherAccountKey = await stack.createKey({ accountId: "acct-b", scopes: ["docs:read", "scripts:read", "scripts:write"] });
}, 180_000);
afterAll(async () => {
  await replicas?.stop();
});

/** A 1.x client over HTTP (through both replicas by default) that records the URIs it is told changed. */
async function httpClient(token: string, heard: string[], url = alternatingUrl): Promise<V1Client> {
  const client = new V1Client({ name: "subscriptions-test", version: "1" });
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void heard.push(notification.params.uri));
  await client.connect(new V1Http(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

/** Makes the change again until `heard` has something (the update stream opens a moment after connect), at most 5 s. */
async function changeUntilHeard(change: () => Promise<unknown>, heard: string[]): Promise<void> {
  for (let tries = 0; tries < 25 && heard.length === 0; tries++) {
    await change();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("resource subscriptions on 2025-11-25", () => {
  it("when an HTTP client subscribes through either replica, then it hears the change, and another account subscribed to the same URI does not", async () => {
    const heard: string[] = [];
    const otherHeard: string[] = [];
    const client = await httpClient(key, heard);
    const other = await httpClient(otherAccountKey, otherHeard);
    expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    await client.subscribeResource({ uri: watched });
    await other.subscribeResource({ uri: watched });
    await changeUntilHeard(() => client.callTool({ name: "test_update_watched_resource", arguments: {} }), heard);
    expect(heard[0]).toBe(watched);
    expect(otherHeard).toEqual([]);
    await client.unsubscribeResource({ uri: watched });
    heard.length = 0;
    await client.callTool({ name: "test_update_watched_resource", arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(heard).toEqual([]);
    await client.close();
    await other.close();
  });

  it("when a script is edited, then the client subscribed to its resource hears of it", async () => {
    const heard: string[] = [];
    const client = await httpClient(key, heard, stack.mcpUrl);
    const made = await client.callTool({ name: "create_script", arguments: { title: "Watch me", text: "Scene 1." } });
    expect(made.isError, JSON.stringify(made)).toBeFalsy();
    let script = (made.structuredContent as { script: { id: string; revision: number } }).script;
    const uri = `bancada://scripts/${script.id}`;
    await client.subscribeResource({ uri });
    await changeUntilHeard(async () => {
      const updated = await client.callTool({
        name: "update_script",
        arguments: { id: script.id, revision: script.revision, title: "Watch me", text: `Scene ${script.revision + 1}.`, status: "draft" },
      });
      expect(updated.isError, JSON.stringify(updated)).toBeFalsy();
      script = (updated.structuredContent as { script: typeof script }).script;
    }, heard);
    await client.close();
    expect(heard).toContain(uri);
  });

  it("when a URI is not the key's to read, or there is no session, then subscribing is refused", async () => {
    const client = await httpClient(key, []);
    await expect(client.subscribeResource({ uri: "bancada://nowhere/1" })).rejects.toThrow(/No resource at/);
    await client.close();
    const response = await fetch(stack.mcpUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "resources/subscribe", params: { uri: watched } }),
    });
    expect(await response.text()).toContain("needs a session");
  });

  it("when a stdio client subscribes, then it hears the change on its connection", async () => {
    const heard: string[] = [];
    const client = new V1Client({ name: "subscriptions-test-stdio", version: "1" });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void heard.push(notification.params.uri));
    await client.connect(new StdioClientTransport(stdioParams({ databaseUrl: stack.database.url, key, conformance: true })), {
      timeout: 110_000,
    });
    try {
      await client.subscribeResource({ uri: watched });
      await changeUntilHeard(() => client.callTool({ name: "test_update_watched_resource", arguments: {} }), heard);
      expect(heard[0]).toBe(watched);
    } finally {
      await client.close();
    }
  }, 180_000);
});

describe("a replica that stops", () => {
  it("when it drains, then its update streams end at once (a stop waits for calls, not for news), and a stream opened after ends at once", async () => {
    const url = secondUrl;
    const headers = { authorization: `Bearer ${key}`, accept: "application/json, text/event-stream" };
    const initialized = await fetch(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "drain-test", version: "1" } },
      }),
    });
    const session = initialized.headers.get("mcp-session-id")!;
    await initialized.text();
    const stream = await fetch(url, { headers: { ...headers, "mcp-session-id": session } });
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    const ended = stream.text().then(() => Date.now());
    const drainedAt = Date.now();
    second.drain();
    expect((await ended) - drainedAt).toBeLessThan(1_000);
    const late = await fetch(url, { headers: { ...headers, "mcp-session-id": session } });
    await expect(late.text()).resolves.toBe("");
  });
});
