/**
 * Answers `<root>.auth.resolve` for the services' REST APIs. The request holds SHA-256 of the key, never the
 * key; the answer is signed for that very request (its call id and digest), so a service can tell it from one
 * sent by anything else on the bus.
 */
import { Header, type Subjects } from "@bancada/contracts";
import {
  bodyDigest,
  decodeJson,
  encodeJson,
  signBusMessage,
  type AuthResolveReply,
  type AuthResolveRequest,
  type Bus,
  type BusSubscription,
} from "@bancada/service-kit";
import type { KeyStore } from "./api-keys.js";

export function serveAuthResolve(bus: Bus, subjects: Subjects, keys: KeyStore): BusSubscription {
  return bus.serve(
    subjects.authResolve,
    async (message) => {
      const { keyDigest } = decodeJson(message.data) as Partial<AuthResolveRequest>;
      const reply: AuthResolveReply = { principal: typeof keyDigest === "string" ? await keys.resolveDigest(keyDigest) : null };
      const data = encodeJson(reply);
      const headers = signBusMessage(bus.keys, subjects.authResolve, { [Header.callId]: message.headers[Header.callId] ?? "" }, data, {
        answers: bodyDigest(message.data),
      });
      return { data, headers };
    },
    { queue: subjects.queue("gateway") },
  );
}
