/**
 * Publishes the outbox (table `events`) on the bus. Events are written in the transaction that causes
 * them, so none is lost; the relay marks each one published after handing it to the bus, so a crash in
 * between publishes it again: delivery is at least once, and `bancada-event-id` (the submission job's
 * id) lets a consumer drop a repeat. Replicas share the outbox with SKIP LOCKED.
 */
import { encodeJson, type Bus, type Logger } from "@bancada/service-kit";
import { transaction, type DraftsDb } from "../db/client.js";

export const eventIdHeader = "bancada-event-id";

export interface EventRelay {
  kick(): void;
  stop(): Promise<void>;
}

export interface EventRelayOptions {
  db: DraftsDb;
  bus: Bus;
  /** The subject an event type is published on. */
  subjectOf: (type: string) => string;
  log: Logger;
  pollMs: number;
}

export function startEventRelay(options: EventRelayOptions): EventRelay {
  let stopping = false;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!stopping) {
      const published = await publishBatch(options).catch((error: unknown) => {
        options.log.warn({ err: error }, "publishing events failed; retrying");
        return 0;
      });
      if (published > 0) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => resolve(), options.pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  })();
  return {
    kick: () => wake?.(),
    async stop() {
      stopping = true;
      wake?.();
      await loop;
    },
  };
}

async function publishBatch(options: EventRelayOptions): Promise<number> {
  return transaction(options.db, async (tx) => {
    const events = await tx.$queryRaw<{ id: string; type: string; payload: unknown }[]>`
      SELECT id::text, type, payload FROM events
       WHERE published_at IS NULL
       ORDER BY events.created_at, events.id
       LIMIT 100
         FOR UPDATE SKIP LOCKED`;
    for (const event of events)
      options.bus.publish(options.subjectOf(event.type), encodeJson(event.payload), { [eventIdHeader]: event.id });
    if (events.length)
      await tx.$executeRaw`UPDATE events SET published_at = now() WHERE id = ANY(${events.map((event) => event.id)}::uuid[])`;
    return events.length;
  });
}
