/**
 * A service says that one of its MCP resources changed (`bancada://scripts/{id}` after an edit): published on
 * `<root>.resources.changed.<service>`, tagged with the service's key, naming the account whose resource it is. The
 * gateway notifies the clients of that account that subscribed to the URI (docs/gateway.md#resource-subscriptions);
 * nobody else hears of it.
 */
import { randomUUID } from "node:crypto";
import { Header, type Subjects } from "@bancada/contracts";
import { encodeJson, type Bus } from "./bus/bus.js";
import { signBusMessage } from "./bus/bus-signature.js";

/** What a resource change says: which service, whose resource, which URI. */
interface ResourceChange {
  service: string;
  accountId: string;
  uri: string;
}

/** Tells the gateways that `uri` of `accountId` changed (fire and forget: a client re-reads it when told). */
export function resourceChanges(bus: Bus, subjects: Subjects, service: string): (accountId: string, uri: string) => void {
  const subject = subjects.resourceChanged(service);
  const key = bus.keys.for(service);
  return (accountId, uri) => {
    const data = encodeJson({ service, accountId, uri } satisfies ResourceChange);
    bus.publish(subject, data, signBusMessage(key, subject, { [Header.callId]: randomUUID() }, data));
  };
}
