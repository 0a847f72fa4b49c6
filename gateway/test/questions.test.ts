/**
 * A service's own questions to the client and its log messages (docs/gateway.md#questions), on the real stack
 * (Postgres, NATS when NATS_URL is set) with the conformance fixture service, whose tools call `ctx.ask` and
 * `ctx.tell` like any service's: the v2 SDK Client (2026-07-28, input_required rounds) and the 1.x Client (2025-11-25,
 * server-to-client requests over its HTTP session or stdio) answer forms, samplings and roots over several rounds;
 * the 2025 answers reach the asking replica when they are posted to another; a state or a session is never taken
 * from another account; log messages arrive only at the level asked for; the fast path leaves such calls to the SDK.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as V1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from "@modelcontextprotocol/client";
import type { Stack } from "@bancada/e2e";
import { fastRequestOf } from "../src/http/mcp-fast-path.js";
import { startTwoReplicas, type TwoReplicas } from "./fixtures/two-replicas.js";
import { modernVersion, stdioParams } from "./mcp-clients.js";

let replicas: TwoReplicas;
let stack: Stack;
let alternatingUrl: string;
let key: string;
let otherAccountKey: string;

beforeAll(async () => {
  replicas = await startTwoReplicas(["conformance"], (replica) => Boolean(replica.catalog.tool("test_input_required_result_multi_round")));
  ({ stack, url: alternatingUrl } = replicas);
  key = await stack.createKey({ scopes: ["docs:read"] });
  otherAccountKey = await stack.createKey({ accountId: "acct-b", scopes: ["docs:read"] });
}, 180_000);
afterAll(async () => {
  await replicas?.stop();
});

const answers = {
  form: (content: Record<string, string>) => ({ action: "accept" as const, content }),
  sampled: { role: "assistant" as const, content: { type: "text" as const, text: "Bonjour!" }, model: "test-model", stopReason: "endTurn" },
  roots: { roots: [{ uri: "file:///home/alice/project", name: "Work" }] },
};
/** The form answers of the fixtures, by the field they ask for. */
const formAnswer = (schema: unknown) => {
  const fields = Object.keys((schema as { properties?: Record<string, unknown> }).properties ?? {});
  return answers.form(Object.fromEntries(fields.map((field) => [field, field === "color" ? "blue" : "Alice"])));
};

function shownText(result: unknown): string {
  return ((result as { content?: { text?: string }[] }).content ?? []).map((block) => block.text ?? "").join(" ");
}

describe("questions on 2026-07-28 (input_required rounds)", () => {
  async function modernClient(token: string, asked: string[]): Promise<V2Client> {
    const client = new V2Client(
      { name: "questions-test", version: "1" },
      {
        versionNegotiation: { mode: { pin: modernVersion } },
        capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
      },
    );
    client.setRequestHandler("elicitation/create", (request) => {
      const params = request.params as { message: string; requestedSchema: unknown };
      asked.push(params.message);
      return formAnswer(params.requestedSchema);
    });
    client.setRequestHandler("sampling/createMessage", () => (asked.push("sampling"), answers.sampled));
    client.setRequestHandler("roots/list", () => (asked.push("roots"), answers.roots));
    await client.connect(new V2Http(new URL(stack.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    return client;
  }

  it("when a tool asks two rounds, then the SDK Client answers each and gets the result built from both", async () => {
    const asked: string[] = [];
    const client = await modernClient(key, asked);
    const result = await client.callTool({ name: "test_input_required_result_multi_round", arguments: {} });
    await client.close();
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(shownText(result)).toContain("Alice likes blue.");
    expect(asked).toEqual(["Step 1: What is your name?", "Step 2: What is your favorite color?"]);
  });

  it("when a tool asks a form, a sampling and the roots at once, then all three answers reach it", async () => {
    const asked: string[] = [];
    const client = await modernClient(key, asked);
    const result = await client.callTool({ name: "test_input_required_result_multiple_inputs", arguments: {} });
    await client.close();
    expect(shownText(result)).toContain("Bonjour! Alice (file:///home/alice/project)");
    expect([...asked].sort()).toEqual(["What is your name?", "roots", "sampling"]);
  });

  it("when a prompt asks, then its messages are built from the answer", async () => {
    const client = await modernClient(key, []);
    const prompt = await client.getPrompt({ name: "test_input_required_result_prompt", arguments: {} });
    await client.close();
    expect(JSON.stringify(prompt.messages)).toContain("Use this context: Alice");
  });

  it("when another account brings a call's state, then it is refused and its answers never reach the service", async () => {
    const first = await rawCall(key, "test_input_required_result_multi_round", {});
    expect(first.result?.resultType).toBe("input_required");
    const stolen = await rawCall(otherAccountKey, "test_input_required_result_multi_round", {
      requestState: first.result?.requestState,
      inputResponses: { step1: answers.form({ name: "Mallory" }) },
    });
    expect(stolen.result?.isError).toBe(true);
    expect(JSON.stringify(stolen.result)).toContain("given for another call");
  });

  it("when a client asks for info logs, then the tool's three messages arrive on its stream; without a level, none", async () => {
    const logged = await rawStream(key, "test_tool_with_logging", "info");
    expect(logged.filter((message) => message.method === "notifications/message").map((message) => message.params?.data)).toEqual([
      "Tool execution started",
      "Tool processing data",
      "Tool execution completed",
    ]);
    const quiet = await rawStream(key, "test_tool_with_logging");
    expect(quiet.some((message) => message.method === "notifications/message")).toBe(false);
    const above = await rawStream(key, "test_tool_with_logging", "warning");
    expect(above.some((message) => message.method === "notifications/message")).toBe(false);
  });
});

describe("questions on 2025-11-25 (server-to-client requests)", () => {
  function legacyClient(asked: string[], logs: unknown[] = []): V1Client {
    const client = new V1Client(
      { name: "questions-test-v1", version: "1" },
      { capabilities: { elicitation: {}, sampling: {}, roots: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return formAnswer((request.params as { requestedSchema?: unknown }).requestedSchema);
    });
    client.setRequestHandler(CreateMessageRequestSchema, () => (asked.push("sampling"), answers.sampled));
    client.setRequestHandler(ListRootsRequestSchema, () => (asked.push("roots"), answers.roots));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params.data));
    return client;
  }

  it("when an HTTP client's answers are posted to the other replica, then they reach the one that asked, round after round", async () => {
    const asked: string[] = [];
    const client = legacyClient(asked);
    await client.connect(new V1Http(new URL(alternatingUrl), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    const rounds = await client.callTool({ name: "test_input_required_result_multi_round", arguments: {} });
    const all = await client.callTool({ name: "test_input_required_result_multiple_inputs", arguments: {} });
    await client.close();
    expect(shownText(rounds)).toContain("Alice likes blue.");
    expect(shownText(all)).toContain("Bonjour! Alice (file:///home/alice/project)");
    expect(asked.slice(0, 2)).toEqual(["Step 1: What is your name?", "Step 2: What is your favorite color?"]);
  });

  it("when an HTTP client has no session (it never initialized here), then a question fails as a tool error", async () => {
    const response = await rawLegacyCall(key, "test_input_required_result_elicitation");
    expect(response).toContain('"isError":true');
    expect(response).toContain("did not declare the required capability");
  });

  it("when another account's key brings a client's session id, then it is no session for it: nothing can be asked", async () => {
    const opened = await fetch(stack.mcpUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "raw", version: "1" } },
      }),
    });
    const session = opened.headers.get("mcp-session-id");
    await opened.text();
    expect(session).toBeTruthy();
    const own = await rawLegacyCall(key, "test_input_required_result_elicitation", session!);
    // its own key's session says it can be asked: the question goes out on the stream (the test does not answer it)
    expect(own).toContain('"method":"elicitation/create"');
    const borrowed = await rawLegacyCall(otherAccountKey, "test_input_required_result_elicitation", session!);
    expect(borrowed).toContain("did not declare the required capability");
    expect(borrowed).not.toContain('"method":"elicitation/create"');
  });

  it("when a call runs a tool that asks or logs, then the fast path leaves it to the SDK", () => {
    const talks = (tool: string) => tool === "test_input_required_result_elicitation";
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const call = (name: string) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } });
    expect(fastRequestOf(headers, call("test_input_required_result_elicitation"), undefined, undefined, talks)).toBeUndefined();
    expect(fastRequestOf(headers, call("test_simple_text"), undefined, undefined, talks)).toBeDefined();
  });

  it("when an HTTP client sets no level (2025 HTTP keeps none between requests), then it gets every log message of the tool", async () => {
    const logs: unknown[] = [];
    const client = legacyClient([], logs);
    await client.connect(new V1Http(new URL(stack.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(logs).toEqual(["Tool execution started", "Tool processing data", "Tool execution completed"]);
    await client.close();
  });

  it("when a stdio client is asked two rounds and sets the log level, then it answers both and hears only what it asked for", async () => {
    const asked: string[] = [];
    const logs: unknown[] = [];
    const client = legacyClient(asked, logs);
    await client.connect(new StdioClientTransport(stdioParams({ databaseUrl: stack.database.url, key, conformance: true })), {
      timeout: 110_000,
    });
    try {
      const rounds = await client.callTool({ name: "test_input_required_result_multi_round", arguments: {} });
      expect(shownText(rounds)).toContain("Alice likes blue.");
      expect(asked).toEqual(["Step 1: What is your name?", "Step 2: What is your favorite color?"]);
      await client.setLoggingLevel("error");
      await client.callTool({ name: "test_tool_with_logging", arguments: {} });
      expect(logs).toEqual([]);
      await client.setLoggingLevel("info");
      await client.callTool({ name: "test_tool_with_logging", arguments: {} });
      expect(logs).toHaveLength(3);
    } finally {
      await client.close();
    }
  }, 180_000);
});

const envelope = (extra: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": modernVersion,
  "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} }, sampling: {}, roots: {} },
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  ...extra,
});

function modernHeaders(token: string, name: string): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": modernVersion,
    "mcp-method": "tools/call",
    "mcp-name": name,
  };
}

/** One 2026-07-28 tools/call on the wire; `extra` adds requestState/inputResponses. */
async function rawCall(token: string, name: string, extra: Record<string, unknown>) {
  const response = await fetch(stack.mcpUrl, {
    method: "POST",
    headers: modernHeaders(token, name),
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {}, ...extra, _meta: envelope() } }),
  });
  const text = await response.text();
  const body = text.startsWith("{")
    ? text
    : (
        text
          .split("\n")
          .filter((line) => line.startsWith("data:"))
          .pop() ?? ""
      ).slice(5);
  return JSON.parse(body) as { result?: { resultType?: string; requestState?: string; isError?: boolean }; error?: { code: number } };
}

/** Every message of a 2026-07-28 tools/call's answer (an SSE stream when the gateway sends notifications first). */
async function rawStream(token: string, name: string, logLevel?: string): Promise<{ method?: string; params?: { data?: unknown } }[]> {
  const meta = envelope(logLevel ? { "io.modelcontextprotocol/logLevel": logLevel } : {});
  const response = await fetch(stack.mcpUrl, {
    method: "POST",
    headers: modernHeaders(token, name),
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: {}, _meta: meta } }),
  });
  const text = await response.text();
  if (text.startsWith("{")) return [JSON.parse(text)];
  return text
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => JSON.parse(line.slice(5)));
}

/**
 * A 2025-era tools/call, without a session (what a stateless client that never initialized sends) or with one. A
 * question put on the stream is never answered here: the text read so far is returned once it shows.
 */
async function rawLegacyCall(token: string, name: string, session?: string): Promise<string> {
  const response = await fetch(stack.mcpUrl, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(session ? { "mcp-session-id": session } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name, arguments: {} } }),
  });
  const reader = response.body!.getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (value) text += new TextDecoder().decode(value);
    if (done || text.includes('"method":"elicitation/create"') || text.includes('"result"')) break;
  }
  await reader.cancel().catch(() => {});
  return text;
}
