/**
 * Services resolve REST API keys through the gateway (`<root>.auth.resolve`), caching each answer for
 * a few seconds only: a revoked key stops working everywhere within that time.
 *
 * The key itself never crosses the bus: the service sends its SHA-256 (`apiKeyDigest`), from which the key
 * cannot be recovered, and the gateway looks that up. The answer counts only when the gateway signed it for
 * this very request (a fresh call id and the request's digest), so nothing else on the bus can answer with a
 * principal of its choosing.
 */
import { createHash, randomUUID } from "node:crypto";
import { DomainError, ErrorCode, Header, principalSchema, type Principal, type Subjects } from "@bancada/contracts";
import { decodeJson, encodeJson, type Bus } from "./bus/bus.js";
import { bodyDigest, checkBusSignature } from "./bus/bus-signature.js";
import type { Logger } from "./logger.js";

export interface KeyResolver {
  resolve(token: string): Promise<Principal | null>;
}

/** The body of an auth.resolve request. */
export interface AuthResolveRequest {
  keyDigest: string;
}

export interface AuthResolveReply {
  principal: Principal | null;
}

/** SHA-256 of an API key, hex: what services send the gateway instead of the key. */
export function apiKeyDigest(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function busKeyResolver(bus: Bus, subjects: Subjects, cacheMs = 5_000, log?: Logger): KeyResolver {
  const cache = new Map<string, { principal: Principal | null; until: number }>();
  return {
    async resolve(token) {
      const keyDigest = apiKeyDigest(token);
      const hit = cache.get(keyDigest);
      if (hit && hit.until > Date.now()) return hit.principal;
      const callId = randomUUID();
      const request = encodeJson({ keyDigest } satisfies AuthResolveRequest);
      const reply = await bus.request(subjects.authResolve, request, { timeoutMs: 5_000, headers: { [Header.callId]: callId } });
      const problem =
        reply.headers[Header.callId] !== callId
          ? "bad_signature"
          : checkBusSignature(bus.keys, subjects.authResolve, reply, { answers: bodyDigest(request) });
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
