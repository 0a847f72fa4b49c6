/**
 * Authentication tags on what the gateway puts on the bus. Anything that can reach NATS could otherwise send a
 * call with any principal: a service runs only calls tagged with its own key (bus-keys.ts: HMAC-SHA256 with a
 * key the gateway derives per service), within a short lifetime, once.
 *
 * A tag covers the subject (so a call to one service cannot be sent to another), every header that says
 * who acts and how (principal, call id, deadline, transport, progress), its own expiry, a SHA-256 of the whole
 * body (so a captured tag cannot carry other arguments) and, for a reply, a digest of the request it
 * answers. Over NATS a large body is checked after its parts are reassembled: the digest is of the whole body.
 * The functions keep the word "signature" (and the header `bancada-signature`) from the Ed25519 design before.
 */
import { createHash } from "node:crypto";
import { DomainError, ErrorCode, Header } from "@bancada/contracts";
import type { BusKey } from "./bus-keys.js";

/** How long after tagging a message is accepted. It only has to cross the bus, not run: the deadline bounds the run. */
export const signatureLifetimeMs = 30_000;
/** How far the gateway's and a service's clocks may disagree. */
export const maxClockSkewMs = 5_000;

const signedHeaders = [Header.principal, Header.callId, Header.deadline, Header.transport, Header.progress, Header.expires] as const;
const encoder = new TextEncoder();

export interface SignOptions {
  /** The signature expires at this time if it is sooner than the lifetime (a call's deadline). */
  notAfter?: number;
  /** For a reply: the digest of the request it answers (`bodyDigest(request.data)`). */
  answers?: string;
  now?: number;
}

export type SignatureProblem = "unsigned" | "bad_signature" | "expired" | "clock_skew" | "replayed";

export function bodyDigest(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("base64url");
}

/** The headers with the expiry and the tag (made with the key of the service the message is for) added. */
export function signBusMessage(
  key: BusKey,
  subject: string,
  headers: Record<string, string>,
  data: Uint8Array,
  options: SignOptions = {},
): Record<string, string> {
  const now = options.now ?? Date.now();
  const expires = Math.min(now + signatureLifetimeMs, options.notAfter ?? Number.POSITIVE_INFINITY);
  const signed = { ...headers, [Header.expires]: String(expires) };
  return { ...signed, [Header.signature]: key.tag(signedBytes(subject, signed, data, options.answers)) };
}

/** Why a message may not be trusted, or undefined when its tag is this key's and it is still fresh. */
export function checkBusSignature(
  key: BusKey,
  subject: string,
  message: { headers: Readonly<Record<string, string>>; data: Uint8Array },
  options: { answers?: string; now?: number } = {},
): SignatureProblem | undefined {
  const signature = message.headers[Header.signature];
  if (!signature) return "unsigned";
  if (!key.matches(signedBytes(subject, message.headers, message.data, options.answers), signature)) return "bad_signature";
  const now = options.now ?? Date.now();
  const expires = Number(message.headers[Header.expires]);
  if (!(now <= expires + maxClockSkewMs)) return "expired";
  if (expires > now + signatureLifetimeMs + maxClockSkewMs) return "clock_skew";
  return undefined;
}

/** The error a refused call answers with; the message says what to do, never what the body held. */
export function refusedCall(problem: SignatureProblem): DomainError {
  const messages: Record<SignatureProblem, string> = {
    unsigned: "The call was not signed by the gateway (no signature): services take calls from the gateway only.",
    bad_signature: "The call was not signed by the gateway (its signature does not match this call, its subject or its arguments).",
    expired: `The call's signature has expired: a call is accepted within ${signatureLifetimeMs / 1000} s of the gateway signing it.`,
    clock_skew: "The call's signature claims to be valid too far ahead: the gateway's and this service's clocks disagree.",
    replayed: "This call was already received once (same call id): a replayed call is not run.",
  };
  return new DomainError(ErrorCode.unauthenticated, messages[problem], { reason: problem });
}

function signedBytes(
  subject: string,
  headers: Readonly<Record<string, string>>,
  data: Uint8Array,
  answers: string | undefined,
): Uint8Array {
  // JSON of an array of strings and nulls: unambiguous, whatever the values contain
  const fields = ["bancada-bus-2", subject, ...signedHeaders.map((name) => headers[name] ?? null), bodyDigest(data), answers ?? null];
  return encoder.encode(JSON.stringify(fields));
}

/**
 * Call ids seen within their signature's lifetime: a service runs each signed call once. Per process: a replay
 * that reaches another replica of the queue group within the lifetime is not caught here (see the README).
 */
export class ReplayGuard {
  readonly #seen = new Map<string, number>();

  /** True the first time an id is offered while it is fresh; false for a repeat. */
  firstSighting(callId: string, expires: number, now = Date.now()): boolean {
    this.#prune(now);
    if (this.#seen.has(callId)) return false;
    this.#seen.set(callId, expires + maxClockSkewMs);
    return true;
  }

  get size(): number {
    return this.#seen.size;
  }

  /** Entries go in nearly in expiry order (one lifetime for all), so the expired ones are at the front. */
  #prune(now: number): void {
    for (const [id, until] of this.#seen) {
      if (until >= now) break;
      this.#seen.delete(id);
    }
  }
}
