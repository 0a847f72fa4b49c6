/** Why a bus request ended without an answer: one list for both buses, their callers and the bus metrics. */
export const BusFailure = {
  noResponders: "no_responders",
  timeout: "timeout",
  cancelled: "cancelled",
  closed: "closed",
  handlerFailed: "handler_failed",
  /** No answer is coming: a body's parts can no longer be pulled (their peer is gone), or the connection failed under the request. */
  lost: "lost",
  /** NATS refused the message: this component's NATS user may not publish to the subject. */
  refused: "refused",
  /** The responder took the request, then fell silent (no acknowledgement, or its heartbeats stopped): it died or was cut off. */
  responderLost: "responder_lost",
  /** A body announced in parts over the bus's limits (nats-parts.ts `maxBusBodyBytes`, `maxBodyParts`): never pulled. */
  tooLarge: "too_large",
  /** This process has been cut off from NATS for longer than the outage grace: nothing can be sent or answered. */
  unreachable: "unreachable",
} as const;
export type BusFailure = (typeof BusFailure)[keyof typeof BusFailure];

export class BusRequestError extends Error {
  readonly reason: BusFailure;
  constructor(reason: BusFailure, subject: string) {
    super(`bus request on ${subject} failed: ${reason}`);
    this.name = "BusRequestError";
    this.reason = reason;
  }
}
