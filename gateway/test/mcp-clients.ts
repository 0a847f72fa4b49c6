/**
 * MCP clients of both SDK lines, over HTTP or launching the stdio gateway: the 1.x `Client`
 * (@modelcontextprotocol/sdk, protocol 2025-11-25) and the v2 `Client` (@modelcontextprotocol/client) pinned
 * to 2026-07-28, as a client of the current revision connects.
 */
import path from "node:path";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as V1Stdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as V1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from "@modelcontextprotocol/client";
import { StdioClientTransport as V2Stdio } from "@modelcontextprotocol/client/stdio";

export type ClientLine = "v1" | "v2";
export type Via = "http" | "stdio";

/** What the tests use of either client; both SDK lines have these methods with these shapes. */
export interface McpClient {
  listTools(): Promise<{ tools: { name: string; description?: string; inputSchema: Record<string, unknown> }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<{
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
    content: unknown[];
  }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{ messages: unknown[] }>;
  close(): Promise<void>;
}

export const modernVersion = "2026-07-28";

/** A stdio gateway compiles and starts every service before it answers: on a loaded machine that passes 60 s. */
const connectTimeoutMs = 110_000;

export interface ConnectOptions {
  mcpUrl: string;
  key: string;
  /** The stack's database, for the stdio gateway process. */
  databaseUrl: string;
  profile?: "core" | "full" | "search";
}

export async function connect(
  line: ClientLine,
  via: Via,
  options: ConnectOptions,
): Promise<McpClient & { protocolVersion(): string | undefined }> {
  const info = { name: `bancada-test-${line}`, version: "1.0.0" };
  if (line === "v1") {
    const client = new V1Client(info);
    await client.connect(
      via === "http" ? new V1Http(httpUrl(options), { requestInit: { headers: auth(options.key) } }) : new V1Stdio(stdioParams(options)),
      { timeout: connectTimeoutMs },
    );
    return Object.assign(client as unknown as McpClient, {
      protocolVersion: () => (client.transport as { protocolVersion?: string } | undefined)?.protocolVersion,
    });
  }
  const client = new V2Client(info, { versionNegotiation: { mode: { pin: modernVersion } } });
  await client.connect(
    via === "http" ? new V2Http(httpUrl(options), { requestInit: { headers: auth(options.key) } }) : new V2Stdio(stdioParams(options)),
    { timeout: connectTimeoutMs },
  );
  return Object.assign(client as unknown as McpClient, { protocolVersion: () => client.getNegotiatedProtocolVersion() });
}

function httpUrl(options: ConnectOptions): URL {
  const url = new URL(options.mcpUrl);
  if (options.profile) url.searchParams.set("profile", options.profile);
  return url;
}

const auth = (key: string) => ({ Authorization: `Bearer ${key}` });

/** How a test starts the stdio gateway (fixtures/stdio-gateway.ts); `conformance` loads the suite's fixture service too. */
export function stdioParams(options: Pick<ConnectOptions, "databaseUrl" | "key" | "profile"> & { conformance?: boolean }) {
  return {
    command: process.execPath,
    args: ["--import", "tsx", path.join(import.meta.dirname, "fixtures/stdio-gateway.ts")],
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: {
      ...(process.env as Record<string, string>),
      STDIO_DATABASE_URL: options.databaseUrl,
      STDIO_API_KEY: options.key,
      ...(options.conformance ? { STDIO_CONFORMANCE: "1" } : {}),
      BANCADA_PROFILE: options.profile ?? "full",
    },
    stderr: "ignore" as const,
  };
}
