/**
 * 2025-era resource subscriptions (docs/gateway.md#resource-subscriptions): `resources/subscribe` records a URI for
 * the client's session — a stdio connection, or a 2025 HTTP client's sealed session (legacy-sessions.ts) — in the
 * gateway schema, so any replica records it and any replica finds it. A service says that a resource changed on
 * `<root>.resources.changed.<service>` (service-kit resource-changes.ts, tagged with its key); the replica that holds
 * a stream of that account (the stdio connection, a 2025 HTTP `GET /mcp`) looks up which of its sessions subscribed
 * to the URI and sends them `notifications/resources/updated`. Only the account's own sessions are ever looked at.
 */
import { createHash } from "node:crypto";
import { ProtocolError, type Server } from "@modelcontextprotocol/server";
import { Header, matchUriTemplate, permits, type Subjects } from "@bancada/contracts";
import { ReplayGuard, checkBusSignature, decodeJson, type Bus, type Logger } from "@bancada/service-kit";
import type { GatewayDb } from "../db/client.js";
import type { Catalog } from "../catalog.js";
import type { Caller } from "./caller.js";
import { invalidParams } from "./request-shape.js";

/** A session's subscriptions are forgotten after this long (a 2025 HTTP session id lives as long). */
const keptMs = 24 * 3600_000;
/** The most URIs one session may watch. */
const maxPerSession = 1000;

type Notify = (uri: string) => void;

interface Stream {
  notify: Notify;
  /** Ends the stream's response (the client opens it again, here or on another replica). */
  end: () => void;
}

export class ResourceSubscriptions {
  readonly #db: GatewayDb;
  readonly #catalog: Catalog;
  readonly #bus: Bus;
  readonly #subjects: Subjects;
  readonly #log: Logger;
  /** The streams this replica holds, by account, then by session. */
  readonly #streams = new Map<string, Map<string, Stream>>();
  /** Set when the replica stops: a stream opened after it ends at once. */
  #ended = false;

  constructor(options: { db: GatewayDb; catalog: Catalog; bus: Bus; subjects: Subjects; log: Logger }) {
    this.#db = options.db;
    this.#catalog = options.catalog;
    this.#bus = options.bus;
    this.#subjects = options.subjects;
    this.#log = options.log;
  }

  /** The session name of a 2025 HTTP session id (its digest: the id itself is never stored). */
  static sessionOf(sessionId: string): string {
    return createHash("sha256").update(sessionId).digest("base64url");
  }

  /** Whether the caller may read `uri`: it belongs to a resource family whose scope the key holds. */
  readable(caller: Caller, uri: string): boolean {
    return this.#catalog
      .resources()
      .some(
        ({ descriptor }) =>
          permits({ scope: descriptor.scope, writes: false }, caller.principal, caller.transport) &&
          matchUriTemplate(descriptor.uriTemplate, uri) !== undefined,
      );
  }

  async subscribe(session: string, caller: Caller, uri: string): Promise<void> {
    const now = new Date();
    await this.#db.mcpResourceSubscription.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - keptMs) } } });
    const held = await this.#db.mcpResourceSubscription.count({ where: { session, keyId: caller.principal.keyId } });
    if (held >= maxPerSession) throw new Error(`A session may watch at most ${maxPerSession} resources; unsubscribe from some first.`);
    await this.#db.mcpResourceSubscription.upsert({
      where: { session_uri: { session, uri } },
      create: { session, uri, keyId: caller.principal.keyId, accountId: caller.principal.accountId, createdAt: now },
      update: {},
    });
  }

  async unsubscribe(session: string, caller: Caller, uri: string): Promise<void> {
    await this.#db.mcpResourceSubscription.deleteMany({ where: { session, uri, keyId: caller.principal.keyId } });
  }

  /** A stream of `accountId`'s session on this replica; the returned function closes it (`forget` drops its subscriptions). */
  open(session: string, accountId: string, stream: Stream): (forget?: boolean) => void {
    if (this.#ended) {
      stream.end();
      return () => {};
    }
    const sessions = this.#streams.get(accountId) ?? new Map<string, Stream>();
    sessions.set(session, stream);
    this.#streams.set(accountId, sessions);
    return (forget = false) => {
      if (sessions.get(session) === stream) sessions.delete(session);
      if (sessions.size === 0) this.#streams.delete(accountId);
      if (forget) void this.#db.mcpResourceSubscription.deleteMany({ where: { session } }).catch(() => {});
    };
  }

  /**
   * Ends every stream this replica holds, when it stops: a stream only waits for news, so the drain must not wait
   * for it (it held a stop for the whole 10 s grace). The subscriptions stay; the client reopens its stream.
   */
  endStreams(): void {
    this.#ended = true;
    for (const sessions of this.#streams.values()) for (const stream of sessions.values()) stream.end();
  }

  /** Hears every service's resource changes and tells the subscribed sessions whose streams are here. */
  listen(): { unsubscribe(): void } {
    const replays = new ReplayGuard();
    return this.#bus.subscribe(this.#subjects.resourceChanged("*"), (message) => {
      const { service, accountId, uri } = decodeJson(message.data) as { service?: string; accountId?: string; uri?: string };
      if (typeof service !== "string" || typeof accountId !== "string" || typeof uri !== "string") return;
      // the tag binds the service's own subject: a message naming another service does not verify with its key
      const subject = this.#subjects.resourceChanged(service);
      let problem = this.#owns(service, uri) ? checkBusSignature(this.#bus.keys.for(service), subject, message) : "bad_signature";
      if (!problem && !replays.firstSighting(message.headers[Header.callId] ?? "", Number(message.headers[Header.expires])))
        problem = "replayed";
      if (problem) return this.#log.warn({ subject, reason: problem }, "refused a resource change not signed by its service");
      void this.#tell(accountId, uri);
    });
  }

  /** Whether `uri` belongs to a resource family `service` serves (a service speaks only for its own resources). */
  #owns(service: string, uri: string): boolean {
    return this.#catalog
      .resources()
      .some((family) => family.service === service && matchUriTemplate(family.descriptor.uriTemplate, uri) !== undefined);
  }

  async #tell(accountId: string, uri: string): Promise<void> {
    const sessions = this.#streams.get(accountId);
    if (!sessions?.size) return;
    try {
      const rows = await this.#db.mcpResourceSubscription.findMany({
        where: { accountId, uri, session: { in: [...sessions.keys()] } },
        select: { session: true },
      });
      for (const { session } of rows) sessions.get(session)?.notify(uri);
    } catch (error) {
      this.#log.warn({ err: error }, "could not look up the subscriptions of a changed resource");
    }
  }
}

/**
 * `resources/subscribe` and `resources/unsubscribe` on a 2025-era Server. `session` names the client's session
 * (none: a 2025 HTTP request without a valid session id, refused with what to do); a URI the key may not read is
 * refused as resources/read refuses it.
 */
export function serveSubscriptions(
  server: Server,
  subscriptions: ResourceSubscriptions,
  caller: Caller,
  session: string | undefined,
): void {
  const checked = (uri: string): string => {
    if (!session)
      throw new ProtocolError(
        invalidParams,
        "resources/subscribe needs a session: send initialize first, then its Mcp-Session-Id with every request, and open GET /mcp to hear the updates.",
      );
    if (!subscriptions.readable(caller, uri))
      throw new ProtocolError(
        invalidParams,
        `No resource at ${uri}; resources/list and resources/templates/list name what this key may read.`,
        {
          uri,
        },
      );
    return session;
  };
  server.setRequestHandler("resources/subscribe", async (request) => {
    await subscriptions.subscribe(checked(request.params.uri), caller, request.params.uri);
    return {};
  });
  server.setRequestHandler("resources/unsubscribe", async (request) => {
    await subscriptions.unsubscribe(checked(request.params.uri), caller, request.params.uri);
    return {};
  });
}
