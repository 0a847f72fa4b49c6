/**
 * Answers `<root>.auth.resolve` for the services' REST APIs. The request holds SHA-256 of the key, never the
 * key, and the name of the asking service; it counts only when tagged with that service's bus key (fresh, once).
 * The answer is tagged with the same key for that very request (its call id and digest), so the service can tell
 * it from one sent by anything else on the bus, and a service asking in another's name gets nothing tagged.
 */
import { Header, type Subjects } from "@bancada/contracts";
import {
  ReplayGuard,
  bodyDigest,
  checkBusSignature,
  decodeJson,
  encodeJson,
  signBusMessage,
  type AuthResolveReply,
  type AuthResolveRequest,
  type Bus,
  type BusSubscription,
  type Logger,
  gatewayKeyScope,
} from "@bancada/service-kit";
import type { KeyStore } from "./api-keys.js";

export function serveAuthResolve(bus: Bus, subjects: Subjects, keys: KeyStore, log: Logger): BusSubscription {
  const replays = new ReplayGuard();
  const nothing = { data: encodeJson({ principal: null } satisfies AuthResolveReply), headers: {} };
  return bus.serve(
    subjects.authResolve,
    async (message) => {
      const { keyDigest, service } = decodeJson(message.data) as Partial<AuthResolveRequest>;
      if (typeof service !== "string" || service === gatewayKeyScope) {
        log.warn({ subject: subjects.authResolve, reason: "unsigned" }, "refused a key resolution that names no service");
        return nothing;
      }
      const key = bus.keys.for(service);
      let problem = checkBusSignature(key, subjects.authResolve, message);
      const callId = message.headers[Header.callId] ?? "";
      if (!problem && !replays.firstSighting(callId, Number(message.headers[Header.expires]))) problem = "replayed";
      if (problem) {
        // unanswered, not answered "unknown key": the asker sees an answer it cannot trust and says so
        log.warn(
          { subject: subjects.authResolve, reason: problem, service },
          "refused a key resolution not signed by the service it names",
        );
        return nothing;
      }
      const reply: AuthResolveReply = { principal: typeof keyDigest === "string" ? await keys.resolveDigest(keyDigest) : null };
      const data = encodeJson(reply);
      const headers = signBusMessage(key, subjects.authResolve, { [Header.callId]: callId }, data, { answers: bodyDigest(message.data) });
      return { data, headers };
    },
    { queue: subjects.queue("gateway") },
  );
}
