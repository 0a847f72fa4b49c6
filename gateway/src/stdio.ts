/**
 * The stdio transport: one key (BANCADA_API_KEY) per process, served with the SDK's `serveStdio`, which picks
 * the era from the client's opening (a 2026-07-28 request or `server/discover`, or a 2025-era `initialize`)
 * and pins one instance from the same factory as HTTP for the connection. Tool-list changes are pushed to the
 * client (as a plain notification on 2025-era connections, on its `subscriptions/listen` stream on 2026-07-28).
 *
 * Each line from the client passes the same check as an HTTP body (`messageProblem`: duplicate keys, malformed
 * tools/call or prompts/get) before the SDK parses it; a refused line is answered with -32602 and goes no further.
 */
import { Transform, type TransformCallback } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { serveStdio as serveSdkStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { JSONRPCMessage, Server } from "@modelcontextprotocol/server";
import type { Profile } from "@bancada/contracts";
import type { Gateway } from "./gateway.js";
import { gatewayVersion } from "./gateway.js";
import { messageProblem, requestIdOf, type ShapeProblem } from "./mcp/request-shape.js";
import type { Caller, View } from "./mcp/caller.js";
import { mcpServerFactory } from "./mcp/server.js";

export async function serveStdio(
  gateway: Gateway,
  apiKey: string,
  profile: Profile | "search" = "full",
  streams?: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream },
): Promise<{ close(): Promise<void> }> {
  const view: View = profile;
  const resolveKey = () => gateway.keys.resolve(apiKey, view === "core" ? "core" : "full");
  const principal = await resolveKey();
  if (!principal) throw new StdioRefusal(unknownKeyMessage);
  // the key is resolved again for every request (through the key store's few-second cache, as over HTTP), so a
  // revoked or expired key stops an open session as fast as it stops HTTP; the caller follows the latest resolution
  const caller: Caller = { principal, view, transport: "stdio" };
  const factory = mcpServerFactory(
    {
      catalog: gateway.catalog,
      router: gateway.router,
      outputSchemas: gateway.outputSchemas,
      version: gatewayVersion,
      tasks: gateway.tasks,
      confirmations: gateway.confirmations,
      subscriptions: gateway.subscriptions,
    },
    caller,
  );
  const stdin = streams?.stdin ?? process.stdin;
  const keyStillWorks = async () => {
    const current = await resolveKey();
    if (current) caller.principal = current;
    return current !== null;
  };
  const checked = new CheckedLines(keyStillWorks, (problem, id) => {
    void transport.send({ jsonrpc: "2.0", id, error: problem } as JSONRPCMessage).catch(() => {});
  });
  stdin.pipe(checked);
  const transport = new StdioServerTransport(checked, (streams?.stdout ?? process.stdout) as never);
  const servers = new Set<Server>();
  const handle = serveSdkStdio(
    (context) => {
      const server = factory(context);
      servers.add(server);
      const closed = server.onclose;
      server.onclose = () => {
        servers.delete(server);
        closed?.();
      };
      return server;
    },
    { transport },
  );
  const unsubscribe = gateway.catalog.onChange(() => {
    for (const server of servers) void server.sendToolListChanged().catch(() => {});
  });
  return {
    async close() {
      unsubscribe();
      stdin.unpipe(checked);
      await handle.close();
    },
  };
}

export const unknownKeyMessage =
  "BANCADA_API_KEY is unknown, revoked or expired: create a key with 'pnpm bancada keys create' (or use the development key 'bancada start' prints) and put it in the client's configuration.";

const keyGoneMessage =
  "BANCADA_API_KEY was revoked or has expired since this session started: nothing more is served with it. Create a key with 'pnpm bancada keys create', put it in the client's configuration and restart the server.";

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

/** Longest line held while waiting for its end; a longer one passes on, and the SDK's own buffer limit refuses it. */
const maxHeldLine = 8 * 1024 * 1024;

/** Newline-delimited JSON-RPC in, the same lines out, minus those `messageProblem` refuses (handed to `refuse`) and every request once the key no longer works. */
class CheckedLines extends Transform {
  readonly #keyStillWorks: () => Promise<boolean>;
  readonly #refuse: (problem: ShapeProblem, id: string | number | null) => void;
  readonly #decoder = new StringDecoder("utf8");
  #held = "";

  constructor(keyStillWorks: () => Promise<boolean>, refuse: (problem: ShapeProblem, id: string | number | null) => void) {
    super();
    this.#keyStillWorks = keyStillWorks;
    this.#refuse = refuse;
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#held += typeof chunk === "string" ? chunk : this.#decoder.write(chunk);
    const lines: string[] = [];
    let end = this.#held.indexOf("\n");
    while (end !== -1) {
      lines.push(this.#held.slice(0, end + 1));
      this.#held = this.#held.slice(end + 1);
      end = this.#held.indexOf("\n");
    }
    if (this.#held.length > maxHeldLine) {
      lines.push(this.#held);
      this.#held = "";
    }
    // in order, one line after the other: the next chunk waits for `done`
    void (async () => {
      for (const line of lines) await this.#pass(line);
    })().then(() => done(), done);
  }

  override _flush(done: TransformCallback): void {
    const rest = this.#held + this.#decoder.end();
    if (rest) this.push(rest);
    done();
  }

  async #pass(line: string): Promise<void> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      // not JSON (or a line too long to hold): the SDK's reader skips or refuses it as it always has
      this.push(line);
      return;
    }
    const problem = messageProblem(line, parsed);
    if (problem) return this.#refuse(problem, requestIdOf(parsed));
    const batch = Array.isArray(parsed);
    const isRequest = batch || typeof (parsed as { method?: unknown } | null)?.method === "string";
    if (isRequest && !(await this.#keyStillWorks())) {
      const id = requestIdOf(parsed);
      // a notification of a key that no longer works has nobody to answer: dropped
      if (id !== null || batch) this.#refuse({ code: stdioRefusedCode, message: keyGoneMessage }, id);
      return;
    }
    this.push(line);
  }
}
