/** The bus over NATS: request/reply with queue groups, headers carried as NATS headers. */
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { headers as natsHeaders, errors, type Msg, type MsgHdrs, type Subscription } from "@nats-io/nats-core";
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
  onError?: (error: unknown) => void;
}

export async function connectNatsBus(options: NatsBusOptions): Promise<NatsBus> {
  const connection = await connect({
    servers: options.url,
    name: options.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
  });
  return new NatsBus(connection, options.onError ?? (() => {}));
}

export class NatsBus implements Bus {
  readonly kind = "nats" as const;
  readonly #connection: NatsConnection;
  readonly #onError: (error: unknown) => void;
  /** Handlers still running and requests still waiting: close() lets them finish first. */
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #serving = new Set<Subscription>();

  constructor(connection: NatsConnection, onError: (error: unknown) => void) {
    this.#connection = connection;
    this.#onError = onError;
  }

  async request(subject: string, data: Uint8Array, options: RequestOptions): Promise<BusMessage> {
    if (this.#connection.isClosed()) throw new BusRequestError(BusFailure.closed, subject);
    if (options.signal?.aborted) throw new BusRequestError(BusFailure.cancelled, subject);
    const pending = this.#connection
      .request(subject, data, { timeout: options.timeoutMs, headers: toNatsHeaders(options.headers) })
      .then(fromNatsMsg, (error: unknown) => {
        throw new BusRequestError(failureOf(error), subject);
      });
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
      reply = await handler(fromNatsMsg(msg));
    } catch (error) {
      this.#onError(error);
      reply = { data: new Uint8Array(), headers: { [handlerFailedHeader]: "1" } };
    }
    try {
      msg.respond(reply.data, { headers: toNatsHeaders(reply.headers) });
    } catch (error) {
      this.#onError(error);
    }
  }
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
