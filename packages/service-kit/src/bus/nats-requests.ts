/**
 * Knowing, over NATS, that the responder of a request is still alive. NATS cannot tell a caller that the process
 * which took its request died (kill -9, a lost node): the answer just never comes. So both ends of a request
 * keep a small protocol on the request's reply subject:
 *
 * - the caller's request carries `bancada-beats: 1` (a caller without it gets no heartbeats: an older one would
 *   take the first for the answer);
 * - a responder still working `ackAfterMs` after the request came in sends a heartbeat (an empty message with
 *   `bancada-beat: 1`) — the acknowledgement — and another every `beatMs` until it answers. A call answered
 *   within `ackAfterMs`, nearly all of them, costs no extra message at all;
 * - the caller gives the request up as `responder_lost` when nothing came `ackWithinMs` after sending, or
 *   nothing for `silenceMs` after the last heartbeat.
 *
 * Every request of a connection shares one wildcard subscription on its own inbox (`<inbox>.<token>`), as nats.js's
 * own requests do, and one timer per request that is re-armed only when it fires: heartbeats cost a map look-up.
 * While the connection has no server nobody's heartbeat can be heard, so the silence clock counts from the
 * reconnect; an outage longer than the grace fails every request in flight as `unreachable` (nats-bus.ts).
 */
import { errors, headers as natsHeaders, type Msg, type MsgHdrs, type NatsConnection, type Subscription } from "@nats-io/nats-core";
import { BusFailure, BusRequestError } from "./bus.js";

export interface NatsLiveness {
  /** A responder still working this long after a request came in acknowledges it (its first heartbeat). */
  ackAfterMs: number;
  /** Then a heartbeat this often until it answers. */
  beatMs: number;
  /** The caller gives up a request that nothing answered or acknowledged this long after it was sent. */
  ackWithinMs: number;
  /** The caller gives up a request whose responder has said nothing this long since its last heartbeat. */
  silenceMs: number;
  /** Cut off from every NATS server this long: requests in flight and new ones fail as `unreachable`. */
  outageGraceMs: number;
}

export const natsLiveness: NatsLiveness = {
  ackAfterMs: 500,
  beatMs: 1_000,
  ackWithinMs: 2_000,
  silenceMs: 3_000,
  outageGraceMs: 2_000,
};

/** On a request: the caller hears heartbeats. On a message to a reply subject: a heartbeat, not the answer. */
const beatsHeader = "bancada-beats";
const beatHeader = "bancada-beat";

interface Pending {
  subject: string;
  deadline: number;
  /** When the last sign of life came (the send, a heartbeat). */
  lastSign: number;
  heard: boolean;
  timer: NodeJS.Timeout | undefined;
  /** When the timer should fire: one firing much later means this process itself was stalled. */
  dueAt: number;
  settle(outcome: Msg | BusFailure): void;
}

/** The caller's side: requests over one inbox subscription, each watched for its deadline and its responder's silence. */
export class WatchedRequests {
  readonly #connection: NatsConnection;
  readonly #liveness: NatsLiveness;
  readonly #inbox: string;
  readonly #pending = new Map<string, Pending>();
  readonly #subscription: Subscription;
  #nextToken = 0;
  /** The last reconnect: silence while the connection had no server says nothing of the responder. */
  #reconnectedAt = 0;
  #connected = true;

  constructor(connection: NatsConnection, inbox: string, liveness: NatsLiveness, onError: (error: unknown) => void) {
    this.#connection = connection;
    this.#liveness = liveness;
    this.#inbox = `${inbox}.`;
    this.#subscription = connection.subscribe(`${inbox}.*`, {
      callback: (error, msg) => {
        if (error) {
          onError(error);
          return this.fail(BusFailure.refused);
        }
        this.#heard(msg);
      },
    });
  }

  get size(): number {
    return this.#pending.size;
  }

  /** Publishes one request and resolves with its answer; rejects with a BusRequestError (no responders among them). */
  send(subject: string, data: Uint8Array, headers: MsgHdrs, timeoutMs: number, signal: AbortSignal | undefined): Promise<Msg> {
    return new Promise<Msg>((resolve, reject) => {
      const token = String(++this.#nextToken);
      const now = Date.now();
      const onAbort = () => pending.settle(BusFailure.cancelled);
      const pending: Pending = {
        subject,
        deadline: now + timeoutMs,
        lastSign: now,
        heard: false,
        timer: undefined,
        dueAt: 0,
        settle: (outcome) => {
          clearTimeout(pending.timer);
          if (!this.#pending.delete(token)) return;
          signal?.removeEventListener("abort", onAbort);
          if (typeof outcome === "string") reject(new BusRequestError(outcome, subject));
          else resolve(outcome);
        },
      };
      this.#pending.set(token, pending);
      this.#arm(pending, Math.min(timeoutMs, this.#liveness.ackWithinMs));
      signal?.addEventListener("abort", onAbort, { once: true });
      headers.set(beatsHeader, "1");
      try {
        this.#connection.publish(subject, data, { reply: this.#inbox + token, headers });
      } catch (error) {
        pending.settle(failureOf(error));
      }
    });
  }

  /** Fails the requests to `subject` (NATS refused to let this connection publish there), or all of them. */
  fail(reason: BusFailure, subject?: string): void {
    for (const pending of [...this.#pending.values()]) if (subject === undefined || pending.subject === subject) pending.settle(reason);
  }

  disconnected(): void {
    this.#connected = false;
  }

  reconnected(): void {
    this.#connected = true;
    this.#reconnectedAt = Date.now();
  }

  close(): void {
    this.fail(BusFailure.closed);
    if (!this.#subscription.isClosed()) this.#subscription.unsubscribe();
  }

  #heard(msg: Msg): void {
    const pending = this.#pending.get(msg.subject.slice(this.#inbox.length));
    if (!pending) return;
    if (msg.headers?.has(beatHeader)) {
      pending.lastSign = Date.now();
      pending.heard = true;
      return;
    }
    if (msg.data.length === 0 && msg.headers?.code === 503) return pending.settle(BusFailure.noResponders);
    pending.settle(msg);
  }

  #arm(pending: Pending, delayMs: number): void {
    pending.dueAt = Date.now() + delayMs;
    pending.timer = setTimeout(() => this.#check(pending), delayMs);
  }

  /** The request's timer: past the deadline it times out; silent too long, it is lost; else the timer waits on. */
  #check(pending: Pending): void {
    const now = Date.now();
    if (now >= pending.deadline) return pending.settle(BusFailure.timeout);
    // this process did not run for a while (a loaded machine, a long pause): the silence it could not hear is not
    // the responder's — nor its heartbeats, still on their way — so that stretch does not count
    const stalledMs = now - pending.dueAt;
    if (stalledMs > stallToleranceMs) pending.lastSign = Math.min(now, pending.lastSign + stalledMs);
    const limit = pending.heard ? this.#liveness.silenceMs : this.#liveness.ackWithinMs;
    const since = Math.max(pending.lastSign, this.#reconnectedAt);
    if (this.#connected && now - since >= limit) {
      // a timer can fire before the socket's pending data is read (after a busy stretch of the event loop):
      // give a heartbeat that already arrived its chance first
      pending.dueAt = now;
      setImmediate(() => {
        if (Math.max(pending.lastSign, this.#reconnectedAt) === since) pending.settle(BusFailure.responderLost);
        else this.#check(pending);
      });
      return;
    }
    const next = this.#connected ? since + limit : now + limit;
    this.#arm(pending, Math.max(1, Math.min(pending.deadline, next) - now));
  }
}

/** A timer this late says more about this process than about the responder. */
const stallToleranceMs = 250;

/** The responder's side: heartbeats for the requests it has been working on for a while. */
export class Heartbeats {
  readonly #connection: NatsConnection;
  readonly #liveness: NatsLiveness;
  readonly #working = new Map<object, { reply: string; nextAt: number }>();
  readonly #beat: MsgHdrs = natsHeaders();
  readonly #ticker: NodeJS.Timeout;
  /** False while the connection has no server: a heartbeat then would be dropped anyway. */
  connected = true;

  constructor(connection: NatsConnection, liveness: NatsLiveness) {
    this.#connection = connection;
    this.#liveness = liveness;
    this.#beat.set(beatHeader, "1");
    this.#ticker = setInterval(() => this.#tick(), Math.max(10, Math.min(liveness.ackAfterMs, liveness.beatMs) / 2));
    this.#ticker.unref();
  }

  /** Starts beating for `msg` if its caller listens for heartbeats; the function returned stops it. */
  begin(msg: Msg): () => void {
    if (!msg.reply || !msg.headers?.has(beatsHeader)) return noop;
    const key = {};
    this.#working.set(key, { reply: msg.reply, nextAt: Date.now() + this.#liveness.ackAfterMs });
    return () => this.#working.delete(key);
  }

  stop(): void {
    clearInterval(this.#ticker);
  }

  #tick(): void {
    if (this.#working.size === 0 || !this.connected) return;
    const now = Date.now();
    for (const work of this.#working.values()) {
      if (now < work.nextAt) continue;
      work.nextAt = now + this.#liveness.beatMs;
      try {
        this.#connection.publish(work.reply, undefined, { headers: this.#beat });
      } catch {
        // the connection is closing: the answer (or its absence) settles the request
      }
    }
  }
}

const noop = () => {};

/** What a nats.js error means for a request. */
export function failureOf(error: unknown): BusFailure {
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
