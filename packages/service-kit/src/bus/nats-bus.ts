/**
 * The bus over NATS: request/reply with queue groups, headers carried as NATS headers.
 *
 * NATS refuses a message larger than the server's max_payload (1 MiB unless configured). A bigger body — a
 * 1 MiB file written as base64, an exec answer with two 1 MiB streams — travels in parts: the sender offers
 * them on a fresh inbox subject, the small message it sends names that subject, and the receiver pulls the
 * parts in order. Bodies under the limit (nearly all) take one message, as before.
 */
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { createInbox, headers as natsHeaders, errors, type Msg, type MsgHdrs, type Subscription } from "@nats-io/nats-core";
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

export interface NatsBusOptions {
  url: string;
  name: string;
  /** Whom this process trusts on the bus (and, in the gateway, how it signs). */
  keys: BusKeys;
  onError?: (error: unknown) => void;
}

export async function connectNatsBus(options: NatsBusOptions): Promise<NatsBus> {
  const connection = await connect({
    servers: options.url,
    name: options.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
  });
  return new NatsBus(connection, options.keys, options.onError ?? (() => {}));
}

export class NatsBus implements Bus {
  readonly kind = "nats" as const;
  readonly keys: BusKeys;
  readonly #connection: NatsConnection;
  readonly #onError: (error: unknown) => void;
  /** Handlers still running and requests still waiting: close() lets them finish first. */
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #serving = new Set<Subscription>();

  constructor(connection: NatsConnection, keys: BusKeys, onError: (error: unknown) => void) {
    this.#connection = connection;
    this.keys = keys;
    this.#onError = onError;
  }

  async request(subject: string, data: Uint8Array, options: RequestOptions): Promise<BusMessage> {
    if (this.#connection.isClosed()) throw new BusRequestError(BusFailure.closed, subject);
    if (options.signal?.aborted) throw new BusRequestError(BusFailure.cancelled, subject);
    const body = this.#offer(data, options.timeoutMs);
    const pending = this.#connection
      .request(subject, body.data, { timeout: options.timeoutMs, headers: toNatsHeaders({ ...options.headers, ...body.headers }) })
      .then(fromNatsMsg, (error: unknown) => {
        throw new BusRequestError(failureOf(error), subject);
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
    this.#connection.publish(subject, data, { headers: toNatsHeaders(headers) });
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
      const body = this.#offer(reply.data, partsOfferMs);
      msg.respond(body.data, { headers: toNatsHeaders({ ...reply.headers, ...body.headers }) });
    } catch (error) {
      this.#onError(error);
    }
  }

  /** A body that fits goes as is; a bigger one is offered in parts on its own subject until pulled (or `ttlMs`). */
  #offer(data: Uint8Array, ttlMs: number): { data: Uint8Array; headers: Record<string, string>; withdraw: () => void } {
    const partBytes = this.#connection.info!.max_payload - partsHeadroomBytes;
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
          throw new BusRequestError(failureOf(error), subject);
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
  if (error instanceof errors.NoRespondersError) return BusFailure.noResponders;
  if (error instanceof errors.TimeoutError) return BusFailure.timeout;
  if (error instanceof errors.RequestError) {
    if (error.isNoResponders()) return BusFailure.noResponders;
    if (error.cause instanceof errors.TimeoutError) return BusFailure.timeout;
  }
  if (error instanceof errors.ClosedConnectionError || error instanceof errors.DrainingConnectionError) return BusFailure.closed;
  return BusFailure.timeout;
}

function abortable<T>(pending: Promise<T>, subject: string, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return pending;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new BusRequestError(BusFailure.cancelled, subject));
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
