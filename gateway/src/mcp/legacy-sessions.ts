/**
 * 2025-era Streamable HTTP with questions to the client (docs/gateway.md#questions). The 2025 revisions put a
 * question to the client as a server-to-client request on the call's own SSE stream; the client answers with a
 * separate POST. Served statelessly, neither half works: the Server of a tools/call never saw the `initialize`
 * that declared what the client can answer, and the answer's POST reaches a fresh Server (maybe on another replica)
 * that never asked. So:
 *
 * - `initialize` gets an `Mcp-Session-Id` that is the client's declared capabilities sealed (HMAC under a key from
 *   the gateway secret, bound to the API key, 24 h): any replica reads them back from the header, nothing is stored.
 * - a Server that may ask draws its request ids from a block of its own (random), and registers the block for its
 *   lifetime on this replica; a POST that carries answers is published on the bus (signed with the gateways' key)
 *   and the replica holding the block hands it to its Server. The waiting call lives where its stream is open anyway;
 *   no other replica needs to know of it.
 *
 * A session id that does not verify (expired, another key's, forged) counts as none: the call is served as before,
 * and a question the client cannot be asked fails as the SDK says.
 */
import { createHmac, hkdfSync, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import type { ClientCapabilities, JSONRPCMessage, Server } from "@modelcontextprotocol/server";
import { Header, type Subjects } from "@bancada/contracts";
import {
  ReplayGuard,
  checkBusSignature,
  decodeJson,
  encodeJson,
  gatewayKeyScope,
  signBusMessage,
  type Bus,
  type Logger,
} from "@bancada/service-kit";

/** How long a 2025-era session id names the client's capabilities; after it, the client is served as if it had none. */
const sessionMs = 24 * 3600_000;
/** Each Server's request ids are `block * blockSize + n`: blocks tell apart the Servers of one key that may ask. */
const blockSize = 2 ** 16;
const maxBlock = 2 ** 36;

interface Sealed {
  k: string;
  c: ClientCapabilities;
  e: number;
}

export class LegacySessions {
  readonly #key: Buffer;
  readonly #bus: Bus;
  readonly #subject: string;
  readonly #log: Logger;
  /** Servers that may ask, by `<keyId>:<block>`, on this replica. */
  readonly #waiting = new Map<string, Server>();

  constructor(secret: string, bus: Bus, subjects: Subjects, log: Logger) {
    this.#key = Buffer.from(hkdfSync("sha256", secret, "bancada", "mcp 2025 session", 32));
    this.#bus = bus;
    this.#subject = subjects.clientAnswer;
    this.#log = log;
  }

  /** The session id an `initialize` of this key answers with. */
  open(keyId: string, capabilities: ClientCapabilities): string {
    const body = Buffer.from(JSON.stringify({ k: keyId, c: capabilities, e: Date.now() + sessionMs } satisfies Sealed)).toString(
      "base64url",
    );
    return `${body}.${this.#tag(body)}`;
  }

  /** The capabilities a session id carries, when it is genuine, current and this key's. */
  capabilities(sessionId: string | null | undefined, keyId: string): ClientCapabilities | undefined {
    if (!sessionId || sessionId.length > 8192) return undefined;
    const [body, tag] = sessionId.split(".");
    if (!body || !tag) return undefined;
    const expected = Buffer.from(this.#tag(body));
    const shown = Buffer.from(tag);
    if (expected.length !== shown.length || !timingSafeEqual(expected, shown)) return undefined;
    try {
      const sealed = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Sealed;
      return sealed.k === keyId && sealed.e > Date.now() ? sealed.c : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Lets `server` (a 2025-era HTTP request's, connected for one call) put questions to a client whose session says
   * what it can answer: the SDK's own view of the client, then request ids of its own block. The returned function
   * releases the block (when the Server closes).
   */
  attach(server: Server, keyId: string, capabilities: ClientCapabilities): () => void {
    // The SDK sets both at `initialize`, which this Server never saw (a stateless request); an SDK upgrade must
    // re-check these two fields (docs/gateway.md#speed lists what we reproduce of the SDK).
    const internals = server as unknown as { _clientCapabilities?: ClientCapabilities; _requestMessageId: number };
    internals._clientCapabilities = capabilities;
    let block = randomInt(1, maxBlock);
    while (this.#waiting.has(`${keyId}:${block}`)) block = randomInt(1, maxBlock);
    internals._requestMessageId = block * blockSize;
    const slot = `${keyId}:${block}`;
    this.#waiting.set(slot, server);
    return () => this.#waiting.delete(slot);
  }

  /** A POST of answers (JSON-RPC responses) from this key's client: to whichever replica asked. */
  answer(keyId: string, messages: JSONRPCMessage[]): void {
    const data = encodeJson({ keyId, messages });
    this.#bus.publish(
      this.#subject,
      data,
      signBusMessage(this.#bus.keys.for(gatewayKeyScope), this.#subject, { [Header.callId]: randomUUID() }, data),
    );
  }

  /** Hears answers posted to any replica, and hands those for this replica's Servers to them. */
  listen(): { unsubscribe(): void } {
    const replays = new ReplayGuard();
    return this.#bus.subscribe(this.#subject, (message) => {
      let problem = checkBusSignature(this.#bus.keys.for(gatewayKeyScope), this.#subject, message);
      if (!problem && !replays.firstSighting(message.headers[Header.callId] ?? "", Number(message.headers[Header.expires])))
        problem = "replayed";
      if (problem) return this.#log.warn({ subject: this.#subject, reason: problem }, "refused a client answer not signed by a gateway");
      const { keyId, messages } = decodeJson(message.data) as { keyId: string; messages: JSONRPCMessage[] };
      for (const answer of messages) {
        const id = (answer as { id?: unknown }).id;
        if (typeof id !== "number") continue;
        this.#waiting.get(`${keyId}:${Math.floor(id / blockSize)}`)?.transport?.onmessage?.(answer);
      }
    });
  }

  #tag(body: string): string {
    return createHmac("sha256", this.#key).update(body).digest("base64url");
  }
}

/** Whether a posted body is only answers to server-to-client requests (JSON-RPC responses), and so which. */
export function answersIn(parsed: unknown): JSONRPCMessage[] | undefined {
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  const answers = messages.every(
    (message) =>
      typeof message === "object" &&
      message !== null &&
      !("method" in message) &&
      "id" in message &&
      ("result" in message || "error" in message),
  );
  return answers && messages.length > 0 ? (messages as JSONRPCMessage[]) : undefined;
}
