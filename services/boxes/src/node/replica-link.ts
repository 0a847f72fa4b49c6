/**
 * What the control-plane replicas tell each other, now that any replica serves any call for any box (one path,
 * domain/box-node.ts): a box being frozen (suspend_box, the reapers) reaches the calls every replica runs in it
 * (`<root>.boxes.replicas.events`, fan-out), and a delete taking over a create, fork or snapshot asks the replica
 * that runs it — named by its operation row — to cancel it and answers once it has ended
 * (`<root>.boxes.replicas.<instance>.stop-work`). Both are tagged with the boxes service's bus key, as every message to
 * the service is (no second scheme); an untagged or replayed one is dropped.
 */
import { randomUUID } from "node:crypto";
import { Header, type Subjects } from "@bancada/contracts";
import {
  ReplayGuard,
  checkBusSignature,
  decodeJson,
  encodeJson,
  signBusMessage,
  type Bus,
  type BusKey,
  type BusMessage,
  type BusSubscription,
  type Logger,
} from "@bancada/service-kit";
import type { RunningOperations } from "../domain/running-operations.js";
import type { BoxSuspensions, Freeze } from "../domain/suspensions.js";

export interface ReplicaLinkOptions {
  bus: Bus;
  subjects: Subjects;
  /** The boxes service's key (null on a machine that runs a node agent alone: nothing to link). */
  key: BusKey | null;
  /** This process (BoxesRuntime.instance). */
  instance: string;
  suspensions: BoxSuspensions;
  operations: RunningOperations;
  log: Logger;
}

/** Beyond the cancelled work's own wait: the time for its replica's answer to come back. */
const answerMarginMs = 5_000;

/** Links this replica to the others; the function returned unlinks it. */
export function linkReplicas({ bus, subjects, key, instance, suspensions, operations, log }: ReplicaLinkOptions): () => void {
  if (!key) return () => {};
  const events = subjects.replicaEvents("boxes");
  const cancelHere = subjects.replicaStopWork("boxes", instance);
  const replays = new ReplayGuard();
  const genuine = (subject: string, message: BusMessage): boolean => {
    const problem = checkBusSignature(key, subject, message);
    const id = message.headers[Header.callId] ?? "";
    if (!problem && replays.firstSighting(id, Number(message.headers[Header.expires]))) return true;
    log.warn({ subject, reason: problem ?? "replayed" }, "dropped a message from another boxes replica");
    return false;
  };
  const signed = (subject: string, body: unknown) => {
    const data = encodeJson(body);
    return { data, headers: signBusMessage(key, subject, { [Header.callId]: randomUUID() }, data) };
  };

  suspensions.tellOthersWith((boxId, freeze) => {
    const { data, headers } = signed(events, { from: instance, boxId, freeze });
    bus.publish(events, data, headers);
  });
  operations.cancelElsewhereWith(async (other, boxId, timeoutMs) => {
    const subject = subjects.replicaStopWork("boxes", other);
    const { data, headers } = signed(subject, { boxId, timeoutMs });
    // a replica gone (no responders) runs nothing more; one that does not answer in time is left to notice
    const started = performance.now();
    const answered = await bus.request(subject, data, { timeoutMs: timeoutMs + answerMarginMs, headers }).then(
      () => true,
      () => false,
    );
    log.debug({ instance: other, boxId, answered, ms: Math.round(performance.now() - started) }, "asked another replica to stop its work");
  });

  const subscriptions: BusSubscription[] = [
    bus.subscribe(events, (message) => {
      if (!genuine(events, message)) return;
      const event = decodeJson(message.data) as { from: string; boxId: string; freeze: Freeze };
      if (event.from !== instance) suspensions.announceHere(event.boxId, event.freeze);
    }),
    bus.serve(cancelHere, async (message) => {
      if (genuine(cancelHere, message)) {
        const { boxId, timeoutMs } = decodeJson(message.data) as { boxId: string; timeoutMs: number };
        await operations.cancel(boxId, Math.min(timeoutMs, 60_000));
      }
      return { data: encodeJson({ ok: true }), headers: {} };
    }),
  ];
  return () => {
    suspensions.tellOthersWith(null);
    operations.cancelElsewhereWith(null);
    for (const subscription of subscriptions) subscription.unsubscribe();
  };
}
