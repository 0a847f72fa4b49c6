/**
 * Services resolve REST API keys through the gateway (`<root>.auth.resolve`), caching each answer for
 * a few seconds only: a revoked key stops working everywhere within that time.
 *
 * The key itself never crosses the bus: the service sends its SHA-256 (`apiKeyDigest`), from which the key
 * cannot be recovered, and the gateway looks that up. The request names the asking service and is tagged with
 * that service's bus key, and the gateway tags its answer with the same key for this very request (a fresh call
 * id and the request's digest): nothing else on the bus can answer with a principal of its choosing, and no
 * service can get an answer tagged with another service's key by asking in its name.
 */
import { createHash, randomUUID } from "node:crypto";
import { DomainError, ErrorCode, Header, principalSchema, type Principal, type Subjects } from "@bancada/contracts";
import { decodeJson, encodeJson, type Bus } from "./bus/bus.js";
import { admitsReply, bodyDigest, checkBusSignature, signBusMessage } from "./bus/bus-signature.js";
import type { Logger } from "./logger.js";

export interface KeyResolver {
  resolve(token: string): Promise<Principal | null>;
}

/** The body of an auth.resolve request. */
export interface AuthResolveRequest {
  keyDigest: string;
  /** The asking service, whose bus key tags the request and the answer. */
  service: string;
}

export interface AuthResolveReply {
  principal: Principal | null;
}

/** SHA-256 of an API key, hex: what services send the gateway instead of the key. */
export function apiKeyDigest(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** How long a service keeps a resolution: with the gateway's own 3 s, a revoked or expired key fails on REST within 5 s. */
export const serviceKeyCacheMs = 2_000;

/** Resolves keys as `service` (a service this process runs: its bus key tags the requests). */
export function busKeyResolver(bus: Bus, subjects: Subjects, service: string, cacheMs = serviceKeyCacheMs, log?: Logger): KeyResolver {
  const key = bus.keys.for(service);
  const cache = new Map<string, { principal: Principal | null; until: number }>();
  return {
    async resolve(token) {
      const keyDigest = apiKeyDigest(token);
      const hit = cache.get(keyDigest);
      if (hit && hit.until > Date.now()) return hit.principal;
      const callId = randomUUID();
      const request = encodeJson({ keyDigest, service } satisfies AuthResolveRequest);
      const headers = signBusMessage(key, subjects.authResolve, { [Header.callId]: callId }, request);
      const reply = await bus.request(subjects.authResolve, request, {
        timeoutMs: 5_000,
        headers,
        admitReply: admitsReply(key, subjects.authResolve, { data: request, headers }),
      });
      const problem =
        reply.headers[Header.callId] !== callId
          ? "bad_signature"
          : checkBusSignature(key, subjects.authResolve, reply, { answers: bodyDigest(request) });
      if (problem) {
        log?.warn({ subject: subjects.authResolve, reason: problem }, "refused a key resolution not signed by the gateway");
        throw new DomainError(ErrorCode.unavailable, "The key service's answer was not signed by the gateway; retry shortly.");
      }
      const body = decodeJson(reply.data) as AuthResolveReply;
      const principal = body.principal ? principalSchema.parse(body.principal) : null;
      if (cache.size > 10_000) cache.clear();
      cache.set(keyDigest, { principal, until: Date.now() + cacheMs });
      return principal;
    },
  };
}
