/**
 * stdio for a client started beside a running Bancada (`bancada start` on the same data folder): instead of a
 * second Bancada on the same database, every message is carried to that instance's /mcp over HTTP with the key
 * as bearer token, and every answer and notification back. The HTTP gateway checks the key, so a refused key is
 * answered like the stdio server's own refusal (-32001, the same words), and so is an instance that went away.
 */
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { stdioRefusedCode, unknownKeyMessage } from "./stdio.js";
import { stdioBridgeHeader } from "./http/mcp-route.js";

export interface StdioBridgeOptions {
  /** core | full | search, as the stdio server's BANCADA_PROFILE. */
  profile?: string;
  /** The running instance's bridge token (its instance.json): with it the instance serves this client as stdio. */
  bridgeToken?: string;
  /** Told once when the key is refused or the instance does not answer (the command writes it on stderr). */
  onProblem?: (message: string) => void;
  streams?: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream };
}

/** Carries stdio to `mcpUrl` until the client closes stdin; resolves with whether every request went through. */
export async function bridgeStdio(mcpUrl: string, apiKey: string, options: StdioBridgeOptions = {}): Promise<{ refused: boolean }> {
  const url = new URL(mcpUrl);
  if (options.profile && options.profile !== "full") url.searchParams.set("profile", options.profile);
  const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}` };
  if (options.bridgeToken) headers[stdioBridgeHeader] = options.bridgeToken;
  const upstream = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const { streams } = options;
  const downstream = streams ? new StdioServerTransport(streams.stdin as never, streams.stdout as never) : new StdioServerTransport();
  let refused = false;
  let told = false;
  const problem = (message: string) => {
    refused = true;
    if (!told) options.onProblem?.(message);
    told = true;
  };
  const closed = new Promise<void>((resolve) => (downstream.onclose = resolve));
  upstream.onmessage = (message) => {
    // the client's requests carry the negotiated revision from now on, as an SDK client's would
    const version = (message as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (typeof version === "string") upstream.setProtocolVersion(version);
    void downstream.send(message).catch(() => {});
  };
  upstream.onerror = () => {};
  downstream.onerror = () => {};
  downstream.onmessage = (message) => {
    void upstream.send(message).catch((error: Error) => {
      const text = problemOf(error, mcpUrl);
      problem(text);
      const id = (message as { id?: string | number; method?: string }).id;
      if (id !== undefined && "method" in message)
        void downstream.send({ jsonrpc: "2.0", id, error: { code: stdioRefusedCode, message: text } } as JSONRPCMessage).catch(() => {});
    });
  };
  await upstream.start();
  await downstream.start();
  await closed;
  await upstream.terminateSession().catch(() => {});
  await upstream.close().catch(() => {});
  return { refused };
}

/** What the client is told: the stdio refusal's words for a refused key, the gateway's own message for another refusal. */
function problemOf(error: Error, mcpUrl: string): string {
  const data = (error as { data?: { status?: number; text?: string | null } }).data;
  if (data?.status === 401 || error.name === "UnauthorizedError") return unknownKeyMessage;
  try {
    const body = JSON.parse(data?.text ?? "") as { error?: { message?: unknown } };
    if (typeof body.error?.message === "string") return body.error.message;
  } catch {
    // not an error envelope of ours: the instance itself did not answer
  }
  return `The running Bancada at ${mcpUrl} did not answer (${error.message}); is 'bancada start' still running?`;
}
