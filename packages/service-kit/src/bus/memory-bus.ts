/**
 * The in-process bus: the same contract as NATS, for the single-process mode and fast tests. Nothing outside
 * the process can reach it, yet calls on it are signed and checked like on NATS (one code path; it costs tens
 * of microseconds): by default with a pair made for this bus alone, which the gateway and the services on it share.
 */
import { BusKeys } from "./bus-keys.js";
import { BusMetrics } from "./bus-metrics.js";
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
  type ServeOptions,
} from "./bus.js";

interface Responder {
  handler: BusHandler;
  queue: string | undefined;
}

export class MemoryBus implements Bus {
  readonly kind = "memory" as const;
  readonly keys: BusKeys;
  readonly metrics = new BusMetrics();
  readonly #responders = new Map<string, Responder[]>();
  readonly #listeners = new Map<string, Set<BusListener>>();
  readonly #inFlight = new Set<Promise<unknown>>();
  #roundRobin = 0;
  #closed = false;

  constructor(keys: BusKeys = BusKeys.generate()) {
    this.keys = keys;
  }

  /** No acknowledgements or heartbeats here: the responder lives in this process, it cannot die apart from the caller. */
  async request(subject: string, data: Uint8Array, options: RequestOptions): Promise<BusMessage> {
    const end = this.metrics.started(subject);
    try {
      const reply = await this.#request(subject, data, options);
      end();
      return reply;
    } catch (error) {
      end(error instanceof BusRequestError ? error.reason : BusFailure.lost);
      throw error;
    }
  }

  async #request(subject: string, data: Uint8Array, options: RequestOptions): Promise<BusMessage> {
    if (this.#closed) throw new BusRequestError(BusFailure.closed, subject);
    if (options.signal?.aborted) throw new BusRequestError(BusFailure.cancelled, subject);
    const responder = this.#pick(subject);
    if (!responder) throw new BusRequestError(BusFailure.noResponders, subject);
    const message: BusMessage = { data: data.slice(), headers: { ...options.headers } };
    const reply = this.#track(runHandler(responder.handler, message));
    return raceDeadline(reply, subject, options);
  }

  /** `admit` has nothing to gate here (no parts): the full check on the whole message refuses the same messages. */
  serve(subject: string, handler: BusHandler, options: ServeOptions = {}): BusSubscription {
    const entry: Responder = { handler, queue: options.queue };
    const list = this.#responders.get(subject) ?? [];
    list.push(entry);
    this.#responders.set(subject, list);
    return {
      unsubscribe: () => {
        const current = this.#responders.get(subject) ?? [];
        this.#responders.set(
          subject,
          current.filter((r) => r !== entry),
        );
      },
    };
  }

  publish(subject: string, data: Uint8Array, headers: Record<string, string> = {}): void {
    if (this.#closed) return;
    for (const [pattern, listeners] of this.#listeners) {
      if (pattern !== subject && !(pattern.includes("*") && matchesWildcard(pattern, subject))) continue;
      for (const listener of listeners) {
        const message: BusMessage = { data: data.slice(), headers: { ...headers } };
        queueMicrotask(() => listener(message));
      }
    }
  }

  subscribe(subject: string, listener: BusListener): BusSubscription {
    const set = this.#listeners.get(subject) ?? new Set();
    set.add(listener);
    this.#listeners.set(subject, set);
    return { unsubscribe: () => void set.delete(listener) };
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([...this.#inFlight]);
    this.#responders.clear();
    this.#listeners.clear();
  }

  /** Like NATS: one member of each queue group, and every responder without a queue; the first answer wins. */
  #pick(subject: string): Responder | undefined {
    const list = this.#responders.get(subject);
    if (!list || list.length === 0) return undefined;
    this.#roundRobin = (this.#roundRobin + 1) % 1_000_000;
    return list[this.#roundRobin % list.length];
  }

  #track<T>(promise: Promise<T>): Promise<T> {
    this.#inFlight.add(promise);
    void promise.finally(() => this.#inFlight.delete(promise)).catch(() => {});
    return promise;
  }
}

async function runHandler(handler: BusHandler, message: BusMessage): Promise<BusMessage> {
  try {
    return await handler(message);
  } catch {
    return { data: new Uint8Array(), headers: { [handlerFailedHeader]: "1" } };
  }
}

function raceDeadline(reply: Promise<BusMessage>, subject: string, options: RequestOptions): Promise<BusMessage> {
  return new Promise<BusMessage>((resolve, reject) => {
    const timer = setTimeout(() => finish(new BusRequestError(BusFailure.timeout, subject)), options.timeoutMs);
    const onAbort = () => finish(new BusRequestError(BusFailure.cancelled, subject));
    options.signal?.addEventListener("abort", onAbort, { once: true });
    function finish(outcome: BusMessage | Error) {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (outcome instanceof Error) reject(outcome);
      else if (outcome.headers[handlerFailedHeader]) reject(new BusRequestError(BusFailure.handlerFailed, subject));
      else resolve(outcome);
    }
    reply.then(finish, () => finish(new BusRequestError(BusFailure.handlerFailed, subject)));
  });
}

/** NATS's `*`: one token (`a.*.c` hears `a.b.c`, not `a.b.b.c`); the only wildcard subscriptions here use it. */
function matchesWildcard(pattern: string, subject: string): boolean {
  const wanted = pattern.split(".");
  const tokens = subject.split(".");
  return wanted.length === tokens.length && wanted.every((token, i) => token === "*" || token === tokens[i]);
}
