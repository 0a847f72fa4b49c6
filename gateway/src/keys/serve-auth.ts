/** Answers `<root>.auth.resolve` for the services' REST APIs. */
import type { Subjects } from "@bancada/contracts";
import { decodeJson, encodeJson, type AuthResolveReply, type Bus, type BusSubscription } from "@bancada/service-kit";
import type { KeyStore } from "./api-keys.js";

export function serveAuthResolve(bus: Bus, subjects: Subjects, keys: KeyStore): BusSubscription {
  return bus.serve(
    subjects.authResolve,
    async (message) => {
      const { token } = decodeJson(message.data) as { token?: unknown };
      const reply: AuthResolveReply = { principal: typeof token === "string" ? await keys.resolve(token) : null };
      return { data: encodeJson(reply), headers: {} };
    },
    { queue: subjects.queue("gateway") },
  );
}
