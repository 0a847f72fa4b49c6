/**
 * The bus over NATS: request/reply with queue groups, headers carried as NATS headers.
 *
 * NATS refuses a message larger than the server's max_payload (1 MiB unless configured). A bigger body — a
 * 1 MiB file written as base64, an exec answer with two 1 MiB streams — travels in parts: the sender offers
 * them on a fresh inbox subject, the small message it sends names that subject, and the receiver pulls the
 * parts in order. Bodies under the limit (nearly all) take one message, as before.
 *
 * Node loss: the client knows every server of the cluster (those given and those the cluster gossips) and
 * reconnects for ever; subscriptions, queue groups included, are made again on the new node, and what is
 * published meanwhile (a request, a handler's reply) is buffered and sent once reconnected. A request in flight
 * when its connection drops keeps waiting: its reply reaches the new node unless it was sent in the moment this
 * connection had no node (then the request ends at its deadline, as `timeout`). Failing such requests at once
 * would throw away nearly all of them, which are answered a few hundred milliseconds later (measured by
 * test/nats-cluster.test.ts). A large body's parts that can no longer be pulled end as `lost`, at once.
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
  /** A CA certificate file (PEM) the servers' TLS certificates are checked against; TLS is then required. */
  tlsCaFile?: string | undefined;
  /** How long start-up waits for a first server to accept the connection (refused, not rejected credentials). */
  firstConnectWithinMs?: number;
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

/** A connection NATS refused for its credentials or permissions: the operator must fix the configuration. */
export class NatsAuthError extends Error {}

export function natsServers(url: string): string[] {
  return url
    .split(",")
    .map((server) => server.trim())
    .filter(Boolean);
}

export async function connectNatsBus(options: NatsBusOptions): Promise<NatsBus> {
  const settings: ConnectionOptions = {
    servers: natsServers(options.url),
    name: options.name,
    ...natsReconnect,
    // start-up waits for a server in the loop below, where a refused password ends it at once
    waitOnFirstConnect: false,
    // no stack captured per request for a possible error: an Error per call was ~1 % of a gateway's CPU
    noAsyncTraces: true,
    ...(options.user !== undefined ? { user: options.user, pass: options.password ?? "" } : {}),
    ...(options.credsFile ? { authenticator: credsAuthenticator(readFileSync(options.credsFile)) } : {}),
    ...(options.tlsCaFile ? { tls: { caFile: options.tlsCaFile } } : {}),
  };
  const until = Date.now() + (options.firstConnectWithinMs ?? 0);
  let waiting = false;
  for (;;) {
    try {
      const connection = await connect(settings);
      return new NatsBus(connection, options.keys, options.onError ?? (() => {}), options.log);
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
  readonly #connection: NatsConnection;
  readonly #onError: (error: unknown) => void;
  /** Handlers still running and requests still waiting: close() lets them finish first. */
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #serving = new Set<Subscription>();
  readonly #log: NatsBusLog | undefined;
  /** The server's max_payload, kept: while reconnecting the connection knows no server. */
  #maxPayload: number;
  /**
   * False between a disconnect and the reconnect. The client drops what is published then (each dial attempt
   * resets its buffer), so requests, replies and messages wait here for the connection instead.
   */
  #connected = true;
  #reconnected = signal();
  readonly #held: (() => void)[] = [];

  constructor(connection: NatsConnection, keys: BusKeys, onError: (error: unknown) => void, log?: NatsBusLog) {
    this.#connection = connection;
    this.keys = keys;
    this.#onError = onError;
    this.#log = log;
    this.#maxPayload = connection.info?.max_payload ?? 1024 * 1024;
    void this.#watch();
  }

  /** Logs what happens to the connection: lost, back, refusals of the server. */
  async #watch(): Promise<void> {
    for await (const status of this.#connection.status()) this.#onStatus(status);
  }

  #onStatus(status: Status): void {
    switch (status.type) {
      case "disconnect":
        if (this.#connected) this.#reconnected = signal();
        this.#connected = false;
        this.#log?.warn({ server: status.server, inFlight: this.#inFlight.size }, "NATS connection lost; reconnecting");
        break;
      case "reconnect":
        this.#connected = true;
        this.#maxPayload = this.#connection.info?.max_payload ?? this.#maxPayload;
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

  /** The server this connection is on now (`host:port`), for logs and tests. */
  get server(): string {
    return this.#connection.getServer();
  }

  async request(subject: string, data: Uint8Array, options: RequestOptions): Promise<BusMessage> {
    if (this.#connection.isClosed()) throw new BusRequestError(BusFailure.closed, subject);
    if (options.signal?.aborted) throw new BusRequestError(BusFailure.cancelled, subject);
    const body = this.#offer(data, options.timeoutMs);
    const until = Date.now() + options.timeoutMs;
    const pending = this.#connectedBy(until)
      .then((connected) => {
        // NATS unreachable for the whole time the caller gave: nobody could have answered
        if (!connected) throw new BusRequestError(BusFailure.lost, subject);
        return this.#connection.request(subject, body.data, {
          timeout: Math.max(1, until - Date.now()),
          headers: toNatsHeaders({ ...options.headers, ...body.headers }),
        });
      })
      .then(fromNatsMsg, (error: unknown) => {
        throw error instanceof BusRequestError ? error : new BusRequestError(failureOf(error), subject);
      })
      .then((reply) => this.#assemble(reply, subject))
      .finally(body.withdraw);
    const reply = await this.#track(abortable(pending, subject, options.signal));
    if (reply.headers[handlerFailedHeader]) throw new BusRequestError(BusFailure.handlerFailed, subject);
    return reply;
  }

  serve(subject: string, handler: BusHandler, options: { queue?: string } = {}): BusSubscription {
    const subscription = this.#connection.subscribe(subject, {
      ...(options.queue ? { queue: options.queue } : {}),
      callback: (error, msg) => {
        if (error) return this.#onError(error);
        void this.#track(this.#answer(handler, msg));
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

  /** True once connected (at once when connected now), false if still cut off at `until`. */
  async #connectedBy(until: number): Promise<boolean> {
    if (this.#connected) return true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, until - Date.now()))));
    const back = await Promise.race([this.#reconnected.promise.then(() => true), late]);
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
    await this.#connection.drain().catch(this.#onError);
  }

  #track<T>(promise: Promise<T>): Promise<T> {
    this.#inFlight.add(promise);
    void promise.finally(() => this.#inFlight.delete(promise)).catch(() => {});
    return promise;
  }

  /** Every async handler is caught here: a rejection answers `handler_failed`, never an unhandled promise. */
  async #answer(handler: BusHandler, msg: Msg): Promise<void> {
    let reply: BusMessage;
    try {
      reply = await handler(await this.#assemble(fromNatsMsg(msg), msg.subject));
    } catch (error) {
      this.#onError(error);
      reply = { data: new Uint8Array(), headers: { [handlerFailedHeader]: "1" } };
    }
    try {
      // a reply finished while cut off waits for the connection: the work the caller asked for is not thrown away
      if (!(await this.#connectedBy(Date.now() + partsOfferMs)))
        return this.#onError(new Error(`reply on ${msg.subject} dropped: NATS unreachable`));
      const body = this.#offer(reply.data, partsOfferMs);
      msg.respond(body.data, { headers: toNatsHeaders({ ...reply.headers, ...body.headers }) });
    } catch (error) {
      this.#onError(error);
    }
  }

  /** A body that fits goes as is; a bigger one is offered in parts on its own subject until pulled (or `ttlMs`). */
  #offer(data: Uint8Array, ttlMs: number): { data: Uint8Array; headers: Record<string, string>; withdraw: () => void } {
    const partBytes = this.#maxPayload - partsHeadroomBytes;
    if (data.byteLength <= partBytes) return { data, headers: {}, withdraw: () => {} };
    const count = Math.ceil(data.byteLength / partBytes);
    const subject = createInbox();
    let served = 0;
    const subscription = this.#connection.subscribe(subject, {
      callback: (error, msg) => {
        if (error) return this.#onError(error);
        const index = Number(new TextDecoder().decode(msg.data));
        msg.respond(data.subarray(index * partBytes, (index + 1) * partBytes));
        if (++served >= count) withdraw();
      },
    });
    const timer = setTimeout(() => withdraw(), ttlMs).unref();
    const withdraw = () => {
      clearTimeout(timer);
      if (!subscription.isClosed()) subscription.unsubscribe();
    };
    return { data: new Uint8Array(), headers: { [partsHeader]: `${subject} ${count} ${data.byteLength}` }, withdraw };
  }

  /** The whole body of a message sent in parts, pulled in order; any other message as it came. */
  async #assemble(message: BusMessage, subject: string): Promise<BusMessage> {
    const offer = message.headers[partsHeader];
    if (!offer) return message;
    const [partsSubject = "", count, total] = offer.split(" ");
    const data = new Uint8Array(Number(total));
    let filled = 0;
    for (let index = 0; index < Number(count); index++) {
      const part = await this.#connection
        .request(partsSubject, new TextEncoder().encode(String(index)), { timeout: partTimeoutMs })
        .catch((error: unknown) => {
          // the peer offering the parts is gone (or cut off): the body is lost, not late
          const reason = failureOf(error);
          throw new BusRequestError(
            reason === BusFailure.timeout || reason === BusFailure.noResponders ? BusFailure.lost : reason,
            subject,
          );
        });
      data.set(part.data, filled);
      filled += part.data.byteLength;
    }
    const { [partsHeader]: _offer, ...headers } = message.headers;
    return { data, headers };
  }
}

const partsHeader = "bancada-parts";
/** Room left in each part for the protocol line and headers. */
const partsHeadroomBytes = 16 * 1024;
/** How long a reply's parts wait to be pulled (the requester pulls at once; this only bounds a vanished one). */
const partsOfferMs = 60_000;
const partTimeoutMs = 10_000;
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

function failureOf(error: unknown): BusFailure {
  if (error instanceof errors.PermissionViolationError || (error as Error).cause instanceof errors.PermissionViolationError) {
    return BusFailure.refused;
  }
  if (error instanceof errors.NoRespondersError) return BusFailure.noResponders;
  if (error instanceof errors.TimeoutError) return BusFailure.timeout;
  if (error instanceof errors.RequestError) {
    if (error.isNoResponders()) return BusFailure.noResponders;
    if (error.cause instanceof errors.TimeoutError) return BusFailure.timeout;
  }
  if (error instanceof errors.ClosedConnectionError || error instanceof errors.DrainingConnectionError) return BusFailure.closed;
  // anything else (the connection closed under the request, a protocol error): no answer is coming, and not for lack of time
  return BusFailure.lost;
}

function abortable<T>(pending: Promise<T>, subject: string, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return pending;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new BusRequestError(BusFailure.cancelled, subject));
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
