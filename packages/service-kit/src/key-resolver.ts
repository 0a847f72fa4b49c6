/**
 * Services resolve REST API keys through the gateway (`<root>.auth.resolve`), caching each answer for
 * a few seconds only: a revoked key stops working everywhere within that time.
 */
import { principalSchema, type Principal, type Subjects } from "@bancada/contracts";
import { decodeJson, encodeJson, type Bus } from "./bus/bus.js";

export interface KeyResolver {
  resolve(token: string): Promise<Principal | null>;
}

export interface AuthResolveReply {
  principal: Principal | null;
}

export function busKeyResolver(bus: Bus, subjects: Subjects, cacheMs = 5_000): KeyResolver {
  const cache = new Map<string, { principal: Principal | null; until: number }>();
  return {
    async resolve(token) {
      const hit = cache.get(token);
      if (hit && hit.until > Date.now()) return hit.principal;
      const reply = await bus.request(subjects.authResolve, encodeJson({ token }), { timeoutMs: 5_000 });
      const body = decodeJson(reply.data) as AuthResolveReply;
      const principal = body.principal ? principalSchema.parse(body.principal) : null;
      if (cache.size > 10_000) cache.clear();
      cache.set(token, { principal, until: Date.now() + cacheMs });
      return principal;
    },
  };
}
