/** A real MCP SDK Client over Streamable HTTP, authenticated with an API key. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export async function connectClient(mcpUrl: string, apiKey: string, options: { profile?: "core" | "full" } = {}): Promise<Client> {
  const url = new URL(mcpUrl);
  if (options.profile) url.searchParams.set("profile", options.profile);
  const client = new Client({ name: "bancada-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${apiKey}` } } }));
  return client;
}

export interface ToolOutcome<T = Record<string, unknown>> {
  isError: boolean;
  data: T;
  text: string;
}

/** Calls a tool and returns its structured result; `text` is content[0].text for the same-JSON check. */
export async function callTool<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: { timeoutMs?: number } = {},
): Promise<ToolOutcome<T>> {
  const result = await client.callTool(
    { name, arguments: args },
    undefined,
    options.timeoutMs ? { timeout: options.timeoutMs } : undefined,
  );
  const first = (result.content as { type: string; text?: string }[])[0];
  const text = first?.text ?? "";
  // An error result of a tool with an advertised output schema carries its envelope as text only.
  const data = result.structuredContent ?? (result.isError === true ? JSON.parse(text) : undefined);
  return { isError: result.isError === true, data: data as T, text };
}

export interface ErrorData {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

/**
 * A tool call over a raw Streamable HTTP POST that the test can walk away from: `abandon()` drops the
 * connection mid-call, as a client that crashes or gives up would.
 */
export function abandonableCall(mcpUrl: string, apiKey: string, name: string, args: Record<string, unknown>): { abandon(): Promise<void> } {
  const controller = new AbortController();
  const body = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } };
  const pending = fetch(mcpUrl, {
    method: "POST",
    signal: controller.signal,
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify(body),
  }).then((response) => response.text());
  return {
    async abandon() {
      controller.abort();
      await pending.catch(() => {});
    },
  };
}
