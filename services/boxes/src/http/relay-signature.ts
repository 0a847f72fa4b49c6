/**
 * Signatures of the REST requests one boxes replica relays to another (owner-relay.ts). A REST request carries
 * no gateway signature — its key was resolved by the gateway where it entered — so the replica that entered
 * signs what it relays with the service's own key, BOXES_SIGNING_KEY, the one every replica already shares for
 * transfer URLs. Whoever holds that key can already mint a transfer URL that reads or writes any box, so
 * trusting it here gives no one a power they did not have. The rules are the gateway's (bus-signature.ts):
 * the subject, who acts, the call id, the deadline and a digest of the whole body are covered; a signature
 * lives 30 s at most, and the receiver runs each call id once.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { Header } from "@bancada/contracts";
import { bodyDigest, maxClockSkewMs, signatureLifetimeMs, type BusMessage, type SignatureProblem } from "@bancada/service-kit";

export interface RelayFields {
  principal: string;
  callId: string;
  /** Epoch ms after which the owner stops the work. */
  deadline: number;
}

/** The headers of a relayed message: its fields, their expiry and the signature. */
export function signRelay(key: Buffer, subject: string, fields: RelayFields, data: Uint8Array, now = Date.now()): Record<string, string> {
  const headers = {
    [Header.principal]: fields.principal,
    [Header.callId]: fields.callId,
    [Header.deadline]: String(fields.deadline),
    [Header.expires]: String(Math.min(now + signatureLifetimeMs, fields.deadline)),
  };
  return { ...headers, [Header.signature]: relayMac(key, subject, headers, data) };
}

/** Why a relayed message may not be trusted, or undefined when a replica holding the key signed it and it is fresh. */
export function relayProblem(key: Buffer, subject: string, message: BusMessage, now = Date.now()): SignatureProblem | undefined {
  const given = message.headers[Header.signature];
  if (!given) return "unsigned";
  const expected = Buffer.from(relayMac(key, subject, message.headers, message.data));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return "bad_signature";
  const expires = Number(message.headers[Header.expires]);
  if (!(now <= expires + maxClockSkewMs)) return "expired";
  if (expires > now + signatureLifetimeMs + maxClockSkewMs) return "clock_skew";
  return undefined;
}

function relayMac(key: Buffer, subject: string, headers: Readonly<Record<string, string>>, data: Uint8Array): string {
  // JSON of an array of strings and nulls: unambiguous whatever the values hold, and never a transfer URL's text
  const fields = ["bancada-boxes-relay-1", subject, ...signed.map((name) => headers[name] ?? null), bodyDigest(data)];
  return createHmac("sha256", key).update(JSON.stringify(fields)).digest("base64url");
}

const signed = [Header.principal, Header.callId, Header.deadline, Header.expires] as const;
