/**
 * The message bus between the gateway and the services. Two implementations keep one contract:
 * NATS (separate processes, queue groups for replicas) and in-process (one process, no broker).
 * The contract test suite in test/bus.contract.test.ts runs against both.
 */
import type { BusKeys } from "./bus-keys.js";
import type { BusMetrics } from "./bus-metrics.js";

export { BusFailure, BusRequestError } from "./bus-failure.js";

export interface BusMessage {
  data: Uint8Array;
  headers: Readonly<Record<string, string>>;
}

/** Answers one request. A handler must answer with data; a rejection is logged and the caller gets `handler_failed`. */
export type BusHandler = (msg: BusMessage) => Promise<BusMessage>;
export type BusListener = (msg: BusMessage) => void;

export interface BusSubscription {
  unsubscribe(): void;
}

/**
 * Whether a body announced in parts (over NATS, of `announcedBytes`) may be pulled, judged on the message's headers
 * (its tag, bus-signature.ts `checkBusAnnouncement`). One refused is handed on without its body. The in-process bus
 * has no parts: there the full check on the whole message does the same work.
 */
export type AdmitBody = (headers: Readonly<Record<string, string>>, announcedBytes: number) => boolean;

export interface RequestOptions {
  timeoutMs: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Whether a reply announced in parts may be pulled. */
  admitReply?: AdmitBody;
}

export interface ServeOptions {
  queue?: string;
  /** Whether a request announced in parts may be pulled. */
  admit?: AdmitBody;
}

export interface Bus {
  readonly kind: "nats" | "memory";
  /**
   * This process's keys for the bus: the master secret where the gateway runs, the keys of the services it
   * runs elsewhere (bus-keys.ts). They travel with the connection, as NATS credentials would: whoever holds the bus knows
   * whom it trusts (bus-signature.ts).
   */
  readonly keys: BusKeys;
  /** This bus's request latency, in-flight count and failures; `metrics.registerIn(registry)` puts them on /metrics. */
  readonly metrics: BusMetrics;
  /**
   * Sends a request and waits for its one answer. Over NATS the responder acknowledges a request it is still
   * working on after a moment and then sends a heartbeat every second (neither when it answers at once), so a
   * responder that dies mid-request fails it as `responder_lost` within seconds instead of at `timeoutMs`.
   */
  request(subject: string, data: Uint8Array, options: RequestOptions): Promise<BusMessage>;
  /** Replies to requests; replicas serving with the same `queue` share the load, one answers each request. */
  serve(subject: string, handler: BusHandler, options?: ServeOptions): BusSubscription;
  publish(subject: string, data: Uint8Array, headers?: Record<string, string>): void;
  /** Every listener hears every message (fan-out), e.g. cancellation and catalog announcements. */
  subscribe(subject: string, listener: BusListener): BusSubscription;
  /** Lets in-flight handlers finish, then disconnects. */
  close(): Promise<void>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

export function decodeJson(data: Uint8Array): unknown {
  return JSON.parse(decoder.decode(data));
}

export const handlerFailedHeader = "bancada-bus-error";
