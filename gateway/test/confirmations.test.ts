/**
 * Confirmations through the client (docs/gateway.md#confirmations), on the real stack (Postgres, NATS, the scripts
 * service): trash_script declares a confirmation. A 2026-07-28 client that declares elicitation is asked through an
 * input_required result (the v2 SDK Client answers it with its elicitation handler and retries); a 2025-11-25 client
 * on stdio is asked with a server-to-client elicitation/create (the 1.x SDK Client). Accept trashes the script,
 * decline keeps it; a tampered request state is refused; a state minted by one replica is taken by another; a client
 * that cannot ask gets today's contract; another account's script is never touched.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as V1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from "@modelcontextprotocol/client";
import { Router } from "express";
import { z } from "zod";
import { DomainError, ErrorCode } from "@bancada/contracts";
import { createLogger, defineTool, hostTools } from "@bancada/service-kit";
import { createGateway, type Gateway } from "@bancada/gateway";
import { startStack, type ServiceFactory, type Stack } from "@bancada/e2e";
import { fastRequestOf } from "../src/http/mcp-fast-path.js";
import { Confirmations } from "../src/mcp/confirmations.js";
import { scriptsFactory } from "./fixtures.js";
import { modernVersion, stdioParams } from "./mcp-clients.js";
import { registeredScopes } from "@bancada/service-registry";

/** What the shelf service's drop_item removed: a tool whose confirmation sets its `confirm` argument, as delete_box's. */
const dropped: string[] = [];
const dropItem = defineTool({
  name: "drop_item",
  description: "Drops an item for good: requires confirm: true.",
  input: z.strictObject({ item: z.string(), confirm: z.boolean().optional() }),
  output: z.object({ dropped: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  scope: "scripts:write",
  confirmation: { message: "Drop item `{item}`? This cannot be undone.", argument: "confirm" },
  handler: async (_ctx, input) => {
    if (input.confirm !== true) throw new DomainError(ErrorCode.invalidArgument, "confirm must be true: the item is gone for good.");
    dropped.push(input.item);
    return { dropped: input.item };
  },
});
const shelfFactory: ServiceFactory = async ({ bus, subjects, log }) => {
  const host = hostTools({ bus, subjects, service: "shelf", version: "1", instructions: "Shelf: for tests.", tools: [dropItem], log });
  return { name: "shelf", routes: Router(), stop: async () => host.stop() };
};

let stack: Stack;
let second: Gateway;
let secondServer: Server;
let secondUrl: string;
let key: string;
let otherAccountKey: string;

beforeAll(async () => {
  stack = await startStack({ services: { scripts: scriptsFactory, shelf: shelfFactory } });
  second = await createGateway({
    databaseUrl: stack.database.url,
    bus: stack.bus,
    subjects: stack.subjects,
    services: ["scripts"],
    scopes: registeredScopes(),
    log: createLogger("replica", "silent"),
    keyPepper: "test-pepper",
    bindHost: "127.0.0.1",
  });
  secondServer = createServer(second.app);
  await new Promise<void>((resolve) => secondServer.listen(0, "127.0.0.1", resolve));
  secondUrl = `http://127.0.0.1:${(secondServer.address() as AddressInfo).port}/mcp`;
  const until = Date.now() + 30_000;
  while (!second.catalog.tool("trash_script") && Date.now() < until) await second.catalog.refresh("scripts");
  key = await stack.createKey({ scopes: ["scripts:read", "scripts:write"] });
  otherAccountKey = await stack.createKey({ accountId: "acct-b", scopes: ["scripts:read", "scripts:write"] });
}, 180_000);
afterAll(async () => {
  secondServer?.closeAllConnections();
  await new Promise((resolve) => secondServer?.close(resolve));
  await second?.stop();
  await stack?.stop();
});

type Answer = { action: "accept"; content: { confirm: boolean } } | { action: "decline" } | { action: "cancel" };
const accept: Answer = { action: "accept", content: { confirm: true } };

interface Script {
  id: string;
  revision: number;
  deletedAt: string | null;
}

/** A v2 client pinned to 2026-07-28; with `answer`, it declares elicitation and answers every question so. */
async function modernClient(token: string, answer?: Answer, asked: string[] = []): Promise<V2Client> {
  const client = new V2Client(
    { name: "confirm-test", version: "1" },
    { versionNegotiation: { mode: { pin: modernVersion } }, ...(answer ? { capabilities: { elicitation: { form: {} } } } : {}) },
  );
  if (answer)
    client.setRequestHandler("elicitation/create", (request) => {
      asked.push((request.params as { message: string }).message);
      return answer;
    });
  await client.connect(new V2Http(new URL(stack.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return client;
}

async function newScript(): Promise<Script> {
  const client = await modernClient(key);
  const made = await client.callTool({ name: "create_script", arguments: { title: "Confirm me", text: "Scene 1." } });
  await client.close();
  return (made.structuredContent as { script: Script }).script;
}

async function readScript(id: string): Promise<Script> {
  const client = await modernClient(key);
  const read = await client.callTool({ name: "get_script", arguments: { id } });
  await client.close();
  expect(read.isError, JSON.stringify(read)).toBeFalsy();
  return (read.structuredContent as { script: Script }).script;
}

/** One tools/call on the wire, 2026-07-28, declaring elicitation; `extra` adds requestState/inputResponses. */
async function rawCall(url: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": modernVersion,
      "mcp-method": "tools/call",
      "mcp-name": "trash_script",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "trash_script",
        arguments: args,
        ...extra,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": modernVersion,
          "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
          "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
        },
      },
    }),
  });
  return (await response.json()) as {
    result?: {
      resultType?: string;
      requestState?: string;
      inputRequests?: Record<string, { method: string; params: { message: string } }>;
      isError?: boolean;
      structuredContent?: Record<string, unknown>;
    };
    error?: { code: number; message: string };
  };
}

describe("confirmations on 2026-07-28 (input_required)", () => {
  it("when the person accepts, then the script is trashed, and the question names it", async () => {
    const script = await newScript();
    const asked: string[] = [];
    const client = await modernClient(key, accept, asked);
    const result = await client.callTool({ name: "trash_script", arguments: { id: script.id, revision: script.revision } });
    await client.close();
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(asked).toEqual([`Move script \`${script.id}\` to the trash? restore_script brings it back.`]);
    expect((await readScript(script.id)).deletedAt).not.toBeNull();
  });

  for (const answer of [{ action: "decline" }, { action: "cancel" }] as const) {
    it(`when the person answers ${answer.action}, then nothing is done and the answer says so`, async () => {
      const script = await newScript();
      const client = await modernClient(key, answer);
      const result = await client.callTool({ name: "trash_script", arguments: { id: script.id, revision: script.revision } });
      await client.close();
      expect(result.isError).toBe(true);
      const error = (result.structuredContent as { error: { code: string; message: string; details: { confirmation: string } } }).error;
      expect(error.code).toBe("failed_precondition");
      expect(error.details.confirmation).toBe(answer.action === "decline" ? "declined" : "cancelled");
      expect(error.message).toMatch(/^Nothing was done/);
      expect((await readScript(script.id)).deletedAt).toBeNull();
    });
  }

  it("when the client declares no elicitation, then the call runs as it always has (no question)", async () => {
    const script = await newScript();
    const client = await modernClient(key);
    const result = await client.callTool({ name: "trash_script", arguments: { id: script.id, revision: script.revision } });
    await client.close();
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect((await readScript(script.id)).deletedAt).not.toBeNull();
  });

  it("when the request state is tampered with, then the answer is refused (-32602) and nothing is done", async () => {
    const script = await newScript();
    const args = { id: script.id, revision: script.revision };
    const first = await rawCall(stack.mcpUrl, args);
    expect(first.result?.resultType).toBe("input_required");
    expect(first.result?.inputRequests?.confirm?.method).toBe("elicitation/create");
    const state = first.result!.requestState!;
    const [version, body, mac] = state.split(".");
    const flipped = `${version}.${body}.${mac!.startsWith("A") ? "B" : "A"}${mac!.slice(1)}`;
    const forged = await rawCall(stack.mcpUrl, args, { requestState: flipped, inputResponses: { confirm: accept } });
    expect(forged.error?.code).toBe(-32602);
    // a valid state given for another call (other arguments) is refused too
    const other = await newScript();
    const replayed = await rawCall(
      stack.mcpUrl,
      { id: other.id, revision: other.revision },
      { requestState: state, inputResponses: { confirm: accept } },
    );
    expect(replayed.result?.isError).toBe(true);
    expect((replayed.result?.structuredContent as { error: { code: string } }).error.code).toBe("invalid_argument");
    expect((await readScript(script.id)).deletedAt).toBeNull();
    expect((await readScript(other.id)).deletedAt).toBeNull();
  });

  it("when the question comes from one replica and the answer goes to another, then the other takes it", async () => {
    const script = await newScript();
    const args = { id: script.id, revision: script.revision };
    const first = await rawCall(stack.mcpUrl, args);
    expect(first.result?.resultType).toBe("input_required");
    const answered = await rawCall(secondUrl, args, { requestState: first.result!.requestState, inputResponses: { confirm: accept } });
    expect(answered.result?.isError, JSON.stringify(answered)).toBeFalsy();
    expect((await readScript(script.id)).deletedAt).not.toBeNull();
  });

  it("when another account's key accepts the question for a script it does not own, then the script is untouched", async () => {
    const script = await newScript();
    const asked: string[] = [];
    const client = await modernClient(otherAccountKey, accept, asked);
    const result = await client.callTool({ name: "trash_script", arguments: { id: script.id, revision: script.revision } });
    await client.close();
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { error: { code: string } }).error.code).toBe("not_found");
    expect((await readScript(script.id)).deletedAt).toBeNull();
  });
});

describe("a confirmation that sets the tool's own argument (delete_box's confirm: true)", () => {
  it("when the person accepts, then the call runs with confirm: true; when the client cannot ask, then confirm is required", async () => {
    const asked: string[] = [];
    const asking = await modernClient(key, accept, asked);
    const yes = await asking.callTool({ name: "drop_item", arguments: { item: "nc-work" } });
    expect(yes.structuredContent, JSON.stringify(yes)).toEqual({ dropped: "nc-work" });
    expect(asked).toEqual(["Drop item `nc-work`? This cannot be undone."]);
    // an explicit confirm: true is not asked about again
    const explicit = await asking.callTool({ name: "drop_item", arguments: { item: "nc-old", confirm: true } });
    expect(explicit.isError, JSON.stringify(explicit)).toBeFalsy();
    expect(asked).toHaveLength(1);
    await asking.close();

    const plain = await modernClient(key);
    const refused = await plain.callTool({ name: "drop_item", arguments: { item: "nc-kept" } });
    await plain.close();
    expect(refused.isError).toBe(true);
    expect((refused.structuredContent as { error: { code: string } }).error.code).toBe("invalid_argument");
    expect(dropped).toEqual(["nc-work", "nc-old"]);
  });
});

describe("the fast path and confirmations", () => {
  it("when a 2026-07-28 call may ask and the client can answer, then the SDK serves it; otherwise the fast path may", () => {
    const mayAsk = (tool: string, args: Record<string, unknown> | undefined) => Confirmations.asksFor(second.catalog, tool, args);
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": modernVersion,
      "mcp-method": "tools/call",
    };
    const call = (name: string, capabilities: Record<string, unknown>) => ({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name,
        arguments: { id: "s1", revision: 1 },
        _meta: {
          "io.modelcontextprotocol/protocolVersion": modernVersion,
          "io.modelcontextprotocol/clientCapabilities": capabilities,
          "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
        },
      },
    });
    const elicits = { elicitation: { form: {} } };
    expect(fastRequestOf({ ...headers, "mcp-name": "trash_script" }, call("trash_script", elicits), undefined, mayAsk)).toBeUndefined();
    expect(fastRequestOf({ ...headers, "mcp-name": "trash_script" }, call("trash_script", {}), undefined, mayAsk)).toBeDefined();
    expect(fastRequestOf({ ...headers, "mcp-name": "get_script" }, call("get_script", elicits), undefined, mayAsk)).toBeDefined();
  });
});

describe("confirmations on 2025-11-25 (elicitation/create)", () => {
  /** A 1.x client that declares elicitation and answers with whatever `next` holds. */
  function legacyClient(next: { answer: Answer }, asked: string[]): V1Client {
    const client = new V1Client({ name: "confirm-test-v1", version: "1" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return next.answer;
    });
    return client;
  }

  it("when a stdio client accepts, then the script is trashed; when it declines, then it is kept", async () => {
    const next: { answer: Answer } = { answer: accept };
    const asked: string[] = [];
    const client = legacyClient(next, asked);
    await client.connect(new StdioClientTransport(stdioParams({ databaseUrl: stack.database.url, key })), { timeout: 110_000 });
    try {
      const kept = await newScript();
      const gone = await newScript();
      const yes = await client.callTool({ name: "trash_script", arguments: { id: gone.id, revision: gone.revision } });
      expect(yes.isError, JSON.stringify(yes)).toBeFalsy();
      next.answer = { action: "decline" };
      const no = await client.callTool({ name: "trash_script", arguments: { id: kept.id, revision: kept.revision } });
      expect(no.isError).toBe(true);
      expect(asked).toHaveLength(2);
      expect(asked[0]).toContain(gone.id);
      expect((await readScript(gone.id)).deletedAt).not.toBeNull();
      expect((await readScript(kept.id)).deletedAt).toBeNull();
    } finally {
      await client.close();
    }
  }, 180_000);

  it("when an HTTP client declares elicitation, then it is asked over its session (2025 era), and a decline keeps the script", async () => {
    const next: { answer: Answer } = { answer: { action: "decline" } };
    const asked: string[] = [];
    const client = legacyClient(next, asked);
    await client.connect(new V1Http(new URL(stack.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    const kept = await newScript();
    const no = await client.callTool({ name: "trash_script", arguments: { id: kept.id, revision: kept.revision } });
    expect(no.isError).toBe(true);
    next.answer = accept;
    const gone = await newScript();
    const yes = await client.callTool({ name: "trash_script", arguments: { id: gone.id, revision: gone.revision } });
    await client.close();
    expect(yes.isError, JSON.stringify(yes)).toBeFalsy();
    expect(asked).toHaveLength(2);
    expect((await readScript(kept.id)).deletedAt).toBeNull();
    expect((await readScript(gone.id)).deletedAt).not.toBeNull();
  });
});
