/**
 * The bus over NATS: request/reply with queue groups, headers carried as NATS headers, bodies over max_payload
 * in parts (nats-parts.ts), and responders that acknowledge long requests and send heartbeats, so a caller
 * notices a responder's death within seconds (nats-requests.ts).
 *
 * Node loss: the client knows every server of the cluster (those given and those the cluster gossips) and
 * reconnects for ever; subscriptions, queue groups included, are made again on the new node, and what is
 * published meanwhile (a handler's reply, progress, a cancellation) waits here and is sent once reconnected.
 * Another node takes over within milliseconds, so requests in flight are not failed at once: a responder that is
 * still alive is heard again after the reconnect (nats-cluster.test.ts kills nodes under load). Cut off from
 * every server for longer than the outage grace (2 s), the bus stops waiting: the requests in flight and every
 * new one fail at once as `unreachable` (the gateway answers `unavailable`, retryable) until a server is back —
 * one log line when the connection is lost, one when it is given up, one when it is back.
 */
import { readFileSync } from "node:fs";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import {
  createInbox,
  credsAuthenticator,
  headers as natsHeaders,
  errors,
  type ConnectionOptions,
  type Msg,
  type MsgHdrs,
  type Status,
  type Subscription,
} from "@nats-io/nats-core";
import type { BusKeys } from "./bus-keys.js";
import { BusMetrics } from "./bus-metrics.js";
import { assembleBody, offerBody, type OfferedBody } from "./nats-parts.js";
import { Heartbeats, WatchedRequests, natsLiveness, type NatsLiveness } from "./nats-requests.js";
import {
  BusFailure,
  BusRequestError,
  handlerFailedHeader,
  type Bus,
  type BusHandler,
  type BusListener,
  type BusMessage,
  type BusSubscription,
  type RequestOptions,
  type AdmitBody,
  type ServeOptions,
} from "./bus.js";

/** Where the bus reports what happens to its connection (a pino logger fits). */
export interface NatsBusLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface NatsBusOptions {
  /** One server or several of one cluster, comma-separated (`nats://a:4222,nats://b:4222`). */
  url: string;
  name: string;
  /** Whom this process trusts on the bus (and, in the gateway, how it signs). */
  keys: BusKeys;
  /** This component's NATS user (with `password`), or `credsFile`, a `.creds` file (user JWT and nkey seed). */
  user?: string | undefined;
  password?: string | undefined;
  credsFile?: string | undefined;
  /**
   * Where this connection's replies and offered parts arrive: `_INBOX.<user>` when a NATS user is given (NATS
   * permits each component its own inboxes only, infra/nats/permissions.mjs), else `_INBOX`.
   */
  inboxPrefix?: string | undefined;
  /**
   * TLS to the servers (PEM files): `caFile`, the CA their certificates must chain to (else the system's), and
   * `certFile` with `keyFile`, this component's client certificate where the servers verify clients. Any of them,
   * or a `tls://` server URL, makes TLS required: a server that offers none is refused.
   */
  tls?: NatsTlsFiles | undefined;
  /** How long start-up waits for a first server to accept the connection (refused, not rejected credentials). */
  firstConnectWithinMs?: number;
  /** When a responder acknowledges and beats, when a caller gives up on one, how long an outage is waited out. */
  liveness?: Partial<NatsLiveness>;
  log?: NatsBusLog;
  onError?: (error: unknown) => void;
}

/**
 * The reconnect policy. Another node of the cluster is tried at once; the wait (plus jitter, so that replicas do
 * not come back in step) only spaces attempts on one server, when every node is down. A node that dies without
 * closing its sockets is noticed by pings: 2 unanswered at 10 s.
 */
export const natsReconnect = {
  maxReconnectAttempts: -1,
  reconnectTimeWait: 1_000,
  reconnectJitter: 500,
  pingInterval: 10_000,
  maxPingOut: 2,
} as const;

export interface NatsTlsFiles {
  caFile?: string | undefined;
  certFile?: string | undefined;
  keyFile?: string | undefined;
}

/**
 * The client's TLS settings: undefined (TLS only if a server requires it, checked against the system's CAs)
 * unless files are given or a server URL says `tls://`; then TLS is required of every server.
 */
export function natsTlsSettings(url: string, files: NatsTlsFiles = {}): ConnectionOptions["tls"] | undefined {
  const given = Object.fromEntries(Object.entries(files).filter(([, file]) => file !== undefined && file !== ""));
  const wanted = Object.keys(given).length > 0 || natsServers(url).some((server) => server.startsWith("tls://"));
  return wanted ? given : undefined;
}

/** A connection NATS refused for its credentials or permissions: the operator must fix the configuration. */
export class NatsAuthError extends Error {}

export function natsServers(url: string): string[] {
  return url
    .split(",")
    .map((server) => server.trim())
    .filter(Boolean);
}

export async function connectNatsBus(options: NatsBusOptions): Promise<NatsBus> {
  const inboxPrefix = options.inboxPrefix ?? (options.user !== undefined ? `_INBOX.${options.user}` : "_INBOX");
  const settings: ConnectionOptions = {
    inboxPrefix,
    servers: natsServers(options.url),
    name: options.name,
    ...natsReconnect,
    // start-up waits for a server in the loop below, where a refused password ends it at once
    waitOnFirstConnect: false,
    // no stack captured per request for a possible error: an Error per call was ~1 % of a gateway's CPU
    noAsyncTraces: true,
    ...(options.user !== undefined ? { user: options.user, pass: options.password ?? "" } : {}),
    ...(options.credsFile ? { authenticator: credsAuthenticator(readFileSync(options.credsFile)) } : {}),
  };
  const tls = natsTlsSettings(options.url, options.tls);
  if (tls) settings.tls = tls;
  const until = Date.now() + (options.firstConnectWithinMs ?? 0);
  let waiting = false;
  for (;;) {
    try {
      const connection = await connect(settings);
      return new NatsBus(connection, {
        keys: options.keys,
        inboxPrefix,
        onError: options.onError ?? (() => {}),
        liveness: { ...natsLiveness, ...options.liveness },
        ...(options.log ? { log: options.log } : {}),
      });
    } catch (error) {
      if (error instanceof errors.AuthorizationError || error instanceof errors.UserAuthenticationExpiredError) {
        throw new NatsAuthError(
          `NATS refused this component's credentials (${error.message}): check NATS_USER/NATS_PASSWORD or NATS_CREDS.`,
        );
      }
      if (Date.now() >= until) throw error;
      if (!waiting) options.log?.warn({ servers: settings.servers, err: (error as Error).message }, "waiting for a NATS server");
      waiting = true;
      await new Promise((resolve) => setTimeout(resolve, natsReconnect.reconnectTimeWait));
    }
  }
}

export class NatsBus implements Bus {
  readonly kind = "nats" as const;
  readonly keys: BusKeys;
  readonly metrics = new BusMetrics();
  readonly #connection: NatsConnection;
  readonly #onError: (error: unknown) => void;
  readonly #liveness: NatsLiveness;
  /** Handlers still running and requests still waiting: close() lets them finish first. */
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #serving = new Set<Subscription>();
  readonly #log: NatsBusLog | undefined;
  readonly #requests: WatchedRequests;
  readonly #heartbeats: Heartbeats;
  readonly #inboxPrefix: string;
  /** The server's max_payload, kept: while reconnecting the connection knows no server. */
  #maxPayload: number;
  /**
   * False between a disconnect and the reconnect. The client drops what is published then (each dial attempt
   * resets its buffer), so replies and messages wait here for the connection instead; requests wait for it up
   * to the outage grace.
   */
  #connected = true;
  #reconnected = signal();
  /** Set once an outage has outlasted the grace, until the reconnect. */
  #givenUp = false;
  #graceOver = signal();
  #outage: NodeJS.Timeout | undefined;
  readonly #held: (() => void)[] = [];

  constructor(
    connection: NatsConnection,
    options: {
      keys: BusKeys;
      onError: (error: unknown) => void;
      liveness?: NatsLiveness;
      log?: NatsBusLog;
      inboxPrefix?: string;
    },
  ) {
    this.#connection = connection;
    this.keys = options.keys;
    this.#onError = options.onError;
    this.#log = options.log;
    this.#liveness = options.liveness ?? natsLiveness;
    this.#maxPayload = connection.info?.max_payload ?? 1024 * 1024;
    this.#inboxPrefix = options.inboxPrefix ?? "_INBOX";
    this.#requests = new WatchedRequests(connection, createInbox(this.#inboxPrefix), this.#liveness, this.#onError);
    this.#heartbeats = new Heartbeats(connection, this.#liveness);
    void connection.closed().then(() => this.#requests.fail(BusFailure.closed));
    void this.#watch();
  }

  /** Logs what happens to the connection: lost, given up, back, refusals of the server. */
  async #watch(): Promise<void> {
    for await (const status of this.#connection.status()) this.#onStatus(status);
  }

  #onStatus(status: Status): void {
    switch (status.type) {
      case "disconnect":
        if (!this.#connected) break;
        this.#connected = false;
        this.#reconnected = signal();
        this.#graceOver = signal();
        this.#requests.disconnected();
        this.#heartbeats.connected = false;
        this.#outage = setTimeout(() => this.#giveUpWaiting(), this.#liveness.outageGraceMs);
        this.#outage.unref();
        this.#log?.warn({ server: status.server, inFlight: this.#inFlight.size }, "NATS connection lost; reconnecting");
        break;
      case "reconnect":
        this.#connected = true;
        clearTimeout(this.#outage);
        this.#maxPayload = this.#connection.info?.max_payload ?? this.#maxPayload;
        this.#requests.reconnected();
        this.#heartbeats.connected = true;
        this.#givenUp = false;
        this.#reconnected.resolve();
        for (const send of this.#held.splice(0)) send();
        this.#log?.info({ server: status.server }, "NATS reconnected; subscriptions restored");
        break;
      case "ldm":
        this.#log?.info({ server: status.server }, "NATS server entering lame duck mode; moving to another");
        break;
      case "error":
        if (status.error instanceof errors.PermissionViolationError) {
          const { operation, subject, queue } = status.error;
          if (operation === "publish") this.#requests.fail(BusFailure.refused, subject);
          this.#log?.warn(
            { operation, subject, ...(queue ? { queue } : {}) },
            `NATS refused to let this component ${operation === "publish" ? "publish to" : "subscribe to"} ${subject}: its NATS user lacks the permission`,
          );
        } else {
          this.#log?.warn({ err: status.error.message }, "NATS server reported an error");
        }
        break;
      case "slowConsumer":
        this.#log?.warn({ subject: status.sub.getSubject(), pending: status.pending }, "NATS slow consumer");
        break;
      default:
    }
  }

  /** The outage outlasted the grace: nothing waits for NATS any more, requests fail at once until it is back. */
  #giveUpWaiting(): void {
    if (this.#connected) return;
    this.#givenUp = true;
    this.#graceOver.resolve();
    this.#requests.fail(BusFailure.unreachable);
    this.#log?.warn(
      { graceMs: this.#liveness.outageGraceMs },
      "NATS unreachable; bus requests fail as unreachable (answered unavailable) until it is back",
    );
  }

  /** The server this connection is on now (`host:port`), for logs and tests. */
  get server(): string {
    return this.#connection.getServer();
  }

  async request(subject: string, data: Uint8Array, options: RequestOptions): Promise<BusMessage> {
    const end = this.metrics.started(subject);
    try {
      const reply = await this.#track(this.#request(subject, data, options));
      end();
      return reply;
    } catch (error) {
      end(error instanceof BusRequestError ? error.reason : BusFailure.lost);
      throw error;
    }
  }

  async #request(subject: string, data: Uint8Array, options: RequestOptions): Promise<BusMessage> {
    if (this.#connection.isClosed()) throw new BusRequestError(BusFailure.closed, subject);
    if (options.signal?.aborted) throw new BusRequestError(BusFailure.cancelled, subject);
    const until = Date.now() + options.timeoutMs;
    // cut off from NATS: wait a moment for the reconnect (another node takes over within milliseconds), no longer
    if (!this.#connected && !(await this.#reconnectedBy(until, true))) throw new BusRequestError(BusFailure.unreachable, subject);
    const body = this.#offer(data, options.timeoutMs);
    try {
      const headers = toNatsHeaders({ ...options.headers, ...body.headers }) ?? natsHeaders();
      const msg = await this.#requests.send(subject, body.data, headers, Math.max(1, until - Date.now()), options.signal);
      const reply = await assembleBody(this.#connection, fromNatsMsg(msg), subject, options.admitReply);
      if (reply.headers[handlerFailedHeader]) throw new BusRequestError(BusFailure.handlerFailed, subject);
      return reply;
    } finally {
      body.withdraw();
    }
  }

  serve(subject: string, handler: BusHandler, options: ServeOptions = {}): BusSubscription {
    const subscription = this.#connection.subscribe(subject, {
      ...(options.queue ? { queue: options.queue } : {}),
      callback: (error, msg) => {
        if (error) return this.#onError(error);
        const stopBeating = this.#heartbeats.begin(msg);
        void this.#track(this.#answer(handler, msg, options.admit).finally(stopBeating));
      },
    });
    this.#serving.add(subscription);
    return {
      unsubscribe: () => {
        this.#serving.delete(subscription);
        subscription.unsubscribe();
      },
    };
  }

  publish(subject: string, data: Uint8Array, headers?: Record<string, string>): void {
    if (this.#connection.isClosed()) return;
    const send = () => this.#connection.publish(subject, data, { headers: toNatsHeaders(headers) });
    if (this.#connected) send();
    else if (this.#held.length < maxHeldMessages) this.#held.push(send);
  }

  /**
   * True once reconnected (at once when connected now), false at `until`. A request also stops waiting when the
   * outage grace is over (`withinGrace`); a reply finished meanwhile waits on, so that the work is not thrown away.
   */
  async #reconnectedBy(until: number, withinGrace: boolean): Promise<boolean> {
    if (this.#connected) return true;
    if (withinGrace && this.#givenUp) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, until - Date.now()))));
    const contenders = [this.#reconnected.promise.then(() => true), late];
    if (withinGrace) contenders.push(this.#graceOver.promise.then(() => false));
    const back = await Promise.race(contenders);
    clearTimeout(timer);
    return back;
  }

  subscribe(subject: string, listener: BusListener): BusSubscription {
    const subscription = this.#connection.subscribe(subject, {
      callback: (error, msg) => {
        if (error) return this.#onError(error);
        try {
          listener(fromNatsMsg(msg));
        } catch (listenerError) {
          this.#onError(listenerError);
        }
      },
    });
    return wrap(subscription);
  }

  /** Stops taking requests, lets handlers and own requests in flight finish (bounded), then drains the connection. */
  async close(graceMs = 10_000): Promise<void> {
    if (this.#connection.isClosed()) return;
    await Promise.allSettled([...this.#serving].map((subscription) => subscription.drain()));
    const grace = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([Promise.allSettled([...this.#inFlight]), grace]);
    clearTimeout(this.#outage);
    this.#heartbeats.stop();
    this.#requests.close();
    await this.#connection.drain().catch(this.#onError);
  }

  #track<T>(promise: Promise<T>): Promise<T> {
    this.#inFlight.add(promise);
    void promise.finally(() => this.#inFlight.delete(promise)).catch(() => {});
    return promise;
  }

  /** Every async handler is caught here: a rejection answers `handler_failed`, never an unhandled promise. */
  async #answer(handler: BusHandler, msg: Msg, admit: AdmitBody | undefined): Promise<void> {
    let reply: BusMessage;
    try {
      reply = await handler(await assembleBody(this.#connection, fromNatsMsg(msg), msg.subject, admit));
    } catch (error) {
      this.#onError(error);
      reply = { data: new Uint8Array(), headers: { [handlerFailedHeader]: "1" } };
    }
    try {
      // a reply finished while cut off waits for the connection: the work the caller asked for is not thrown away
      if (!(await this.#reconnectedBy(Date.now() + partsOfferMs, false)))
        return this.#onError(new Error(`reply on ${msg.subject} dropped: NATS unreachable`));
      const body = this.#offer(reply.data, partsOfferMs);
      msg.respond(body.data, { headers: toNatsHeaders({ ...reply.headers, ...body.headers }) });
    } catch (error) {
      this.#onError(error);
    }
  }

  #offer(data: Uint8Array, ttlMs: number): OfferedBody {
    return offerBody(this.#connection, data, { maxPayload: this.#maxPayload, ttlMs, inboxPrefix: this.#inboxPrefix }, this.#onError);
  }
}

/** How long a reply's parts wait to be pulled (the requester pulls at once; this only bounds a vanished one). */
const partsOfferMs = 60_000;
/** Messages (progress, cancellations, announcements) kept while cut off from NATS; older ones matter most. */
const maxHeldMessages = 1_000;

/** A promise and the function that settles it (Promise.withResolvers, which Node 20 lacks). */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve };
}

function wrap(subscription: Subscription): BusSubscription {
  return { unsubscribe: () => subscription.unsubscribe() };
}

function toNatsHeaders(values: Record<string, string> | undefined): MsgHdrs | undefined {
  if (!values) return undefined;
  const entries = Object.entries(values);
  if (entries.length === 0) return undefined;
  const result = natsHeaders();
  for (const [key, value] of entries) result.set(key, value);
  return result;
}

function fromNatsMsg(msg: Msg): BusMessage {
  const headers: Record<string, string> = {};
  if (msg.headers) {
    for (const key of msg.headers.keys()) headers[key.toLowerCase()] = msg.headers.get(key);
  }
  return { data: msg.data, headers };
}
