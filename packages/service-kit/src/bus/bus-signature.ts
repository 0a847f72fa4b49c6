/**
 * Authentication tags on what the gateway puts on the bus. Anything that can reach NATS could otherwise send a
 * call with any principal: a service runs only calls tagged with its own key (bus-keys.ts: HMAC-SHA256 with a
 * key the gateway derives per service), within a short lifetime, once.
 *
 * A tag covers the subject (so a call to one service cannot be sent to another), every header that says
 * who acts and how (principal, call id, deadline, transport, progress), its own expiry, the body's size and
 * SHA-256 (so a captured tag cannot carry other arguments) and, for a reply, a digest of the request it
 * answers. Size and digest travel in a header of their own (`bancada-body`), so a tag can be checked before the
 * body is there: over NATS a large body comes in parts, and its announcement is checked against the tag (which
 * names its size) before any part is pulled (`checkBusAnnouncement`); the reassembled body must then match the
 * digest. The same tags are made by the services on their replies, catalogs and progress (tool-host.ts), with
 * their own key: the gateway takes nothing from a service its key did not tag.
 * The functions keep the word "signature" (and the header `bancada-signature`) from the Ed25519 design before.
 */
import { createHash } from "node:crypto";
import { DomainError, ErrorCode, Header } from "@bancada/contracts";
import type { AdmitBody, BusMessage } from "./bus.js";
import type { BusKey } from "./bus-keys.js";

/** How long after tagging a message is accepted. It only has to cross the bus, not run: the deadline bounds the run. */
export const signatureLifetimeMs = 30_000;
/** How far the gateway's and a service's clocks may disagree. */
export const maxClockSkewMs = 5_000;

const signedHeaders = [
  Header.principal,
  Header.callId,
  Header.deadline,
  Header.transport,
  Header.progress,
  Header.expires,
  Header.body,
] as const;
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
  const signed = { ...headers, [Header.expires]: String(expires), [Header.body]: bodyClaim(data) };
  return { ...signed, [Header.signature]: key.tag(signedBytes(subject, signed, options.answers)) };
}

/** Why a message may not be trusted, or undefined when its tag is this key's and it is still fresh. */
export function checkBusSignature(
  key: BusKey,
  subject: string,
  message: { headers: Readonly<Record<string, string>>; data: Uint8Array },
  options: { answers?: string; now?: number } = {},
): SignatureProblem | undefined {
  const problem = checkTag(key, subject, message.headers, options);
  if (problem) return problem;
  // the tag covers the claimed size and digest: the body that came must be the one claimed
  return message.headers[Header.body] === bodyClaim(message.data) ? undefined : "bad_signature";
}

/**
 * Before a body announced in parts is pulled: whether the tag is this key's, fresh, and names that very size.
 * A message that fails this is handed on without its body (and then refused by the full check): nothing an
 * untrusted sender announces is ever pulled or allocated.
 */
export function checkBusAnnouncement(
  key: BusKey,
  subject: string,
  headers: Readonly<Record<string, string>>,
  announcedBytes: number,
  options: { answers?: string; now?: number } = {},
): SignatureProblem | undefined {
  const problem = checkTag(key, subject, headers, options);
  if (problem) return problem;
  const claimed = Number(headers[Header.body]?.split(" ")[0]);
  return claimed === announcedBytes ? undefined : "bad_signature";
}

function checkTag(
  key: BusKey,
  subject: string,
  headers: Readonly<Record<string, string>>,
  options: { answers?: string; now?: number },
): SignatureProblem | undefined {
  const signature = headers[Header.signature];
  if (!signature) return "unsigned";
  if (!key.matches(signedBytes(subject, headers, options.answers), signature)) return "bad_signature";
  const now = options.now ?? Date.now();
  const expires = Number(headers[Header.expires]);
  if (!(now <= expires + maxClockSkewMs)) return "expired";
  if (expires > now + signatureLifetimeMs + maxClockSkewMs) return "clock_skew";
  return undefined;
}

/**
 * A service's answer to a request it took (a call's reply, its catalog): tagged with the service's key for that
 * request alone (its call id and body digest), so that nothing without the key can answer in its name.
 */
export function signReply(key: BusKey, subject: string, request: BusMessage, data: Uint8Array): Record<string, string> {
  return signBusMessage(key, subject, { [Header.callId]: request.headers[Header.callId] ?? "" }, data, {
    answers: bodyDigest(request.data),
  });
}

/** Why an answer to `request` may not be trusted as the service's (whose key is `key`), if it may not. */
export function checkReply(key: BusKey, subject: string, request: BusMessage, reply: BusMessage): SignatureProblem | undefined {
  if (reply.headers[Header.callId] !== (request.headers[Header.callId] ?? ""))
    return reply.headers[Header.signature] ? "bad_signature" : "unsigned";
  return checkBusSignature(key, subject, reply, { answers: bodyDigest(request.data) });
}

/** The same check on a reply announced in parts, before they are pulled (`AdmitBody`). */
export function admitsReply(key: BusKey, subject: string, request: BusMessage): AdmitBody {
  const answers = bodyDigest(request.data);
  const callId = request.headers[Header.callId] ?? "";
  return (headers, announcedBytes) =>
    headers[Header.callId] === callId && checkBusAnnouncement(key, subject, headers, announcedBytes, { answers }) === undefined;
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

/** What the `bancada-body` header says of a body: its size in bytes and its digest. */
function bodyClaim(data: Uint8Array): string {
  return `${data.byteLength} ${bodyDigest(data)}`;
}

function signedBytes(subject: string, headers: Readonly<Record<string, string>>, answers: string | undefined): Uint8Array {
  // JSON of an array of strings and nulls: unambiguous, whatever the values contain
  const fields = ["bancada-bus-3", subject, ...signedHeaders.map((name) => headers[name] ?? null), answers ?? null];
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
