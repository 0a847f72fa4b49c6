/**
 * The stdio transport: one key (BANCADA_API_KEY) per process, served with the SDK's `serveStdio`, which picks
 * the era from the client's opening (a 2026-07-28 request or `server/discover`, or a 2025-era `initialize`)
 * and pins one instance from the same factory as HTTP for the connection. Tool-list changes are pushed to the
 * client (as a plain notification on 2025-era connections, on its `subscriptions/listen` stream on 2026-07-28).
 */
import { serveStdio as serveSdkStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { JSONRPCMessage, Server, Transport } from "@modelcontextprotocol/server";
import type { Profile } from "@bancada/contracts";
import type { Gateway } from "./gateway.js";
import { gatewayVersion } from "./gateway.js";
import { requestShapeProblem } from "./mcp/request-shape.js";
import { mcpServerFactory, type View } from "./mcp/server.js";

export async function serveStdio(
  gateway: Gateway,
  apiKey: string,
  profile: Profile | "search" = "full",
  streams?: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream },
): Promise<{ close(): Promise<void> }> {
  const view: View = profile;
  const principal = await gateway.keys.resolve(apiKey, view === "core" ? "core" : "full");
  if (!principal) throw new StdioRefusal(unknownKeyMessage);
  const factory = mcpServerFactory(
    { catalog: gateway.catalog, router: gateway.router, outputSchemas: gateway.outputSchemas, version: gatewayVersion },
    { principal, view, transport: "stdio" },
  );
  const servers = new Set<Server>();
  const handle = serveSdkStdio(
    (context) => {
      const server = factory(context);
      servers.add(server);
      server.onclose = () => servers.delete(server);
      return server;
    },
    {
      transport: new ShapeCheckedTransport(
        streams ? new StdioServerTransport(streams.stdin as never, streams.stdout as never) : new StdioServerTransport(),
      ),
    },
  );
  const unsubscribe = gateway.catalog.onChange(() => {
    for (const server of servers) void server.sendToolListChanged().catch(() => {});
  });
  return {
    async close() {
      unsubscribe();
      await handle.close();
    },
  };
}

export const unknownKeyMessage =
  "BANCADA_API_KEY is unknown, revoked or expired: create a key with 'pnpm bancada keys create' (or use the development key 'bancada start' prints) and put it in the client's configuration.";

/** Why a stdio server cannot serve (no key, an unknown one, a bad configuration): said to the client as well as on stderr. */
export class StdioRefusal extends Error {}

/** The JSON-RPC error code of a stdio server that refuses to serve (the range -32000 to -32099 is the server's own). */
export const stdioRefusedCode = -32001;

/**
 * Serves nothing but the reason: every request (initialize, server/discover, anything) is answered with a JSON-RPC error
 * carrying `message`, which a client shows, instead of a closed connection it can only call "Connection closed".
 * Resolves when the client closes stdin.
 */
export async function refuseStdio(
  message: string,
  streams?: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream },
): Promise<void> {
  const transport = streams ? new StdioServerTransport(streams.stdin as never, streams.stdout as never) : new StdioServerTransport();
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  transport.onmessage = (incoming) => {
    const request = incoming as { id?: string | number; method?: string };
    if (request.id === undefined || request.method === undefined) return;
    void transport.send({ jsonrpc: "2.0", id: request.id, error: { code: stdioRefusedCode, message } } as JSONRPCMessage).catch(() => {});
  };
  transport.onerror = () => {};
  await transport.start();
  await closed;
}

/** Answers a malformed tools/call or prompts/get with a readable -32602 before the SDK's raw schema dump would. */
class ShapeCheckedTransport implements Transport {
  readonly #inner: Transport;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];

  constructor(inner: Transport) {
    this.#inner = inner;
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      const problem = requestShapeProblem(message);
      const id = (message as { id?: string | number }).id;
      if (problem && id !== undefined) {
        void inner.send({ jsonrpc: "2.0", id, error: problem } as JSONRPCMessage).catch(() => {});
        return;
      }
      this.onmessage?.(message, extra);
    };
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(...args: Parameters<Transport["send"]>): Promise<void> {
    return this.#inner.send(...args);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
