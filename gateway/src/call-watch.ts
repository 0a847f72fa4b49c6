/**
 * Which calls in flight have lost their replica. A call that reached a service replica which then died gets
 * no reply, and NATS cannot tell: without this, the gateway would wait for the call's deadline (up to ten
 * minutes for exec) and answer `deadline_exceeded`. Every replica names the calls it runs once a second
 * (`<root>.running`, tool-host.ts); a call no replica has named for `lostAfterMs` is given up as `unavailable`,
 * which the client may retry with the same idempotency key.
 */
import { decodeJson, type Bus, type BusSubscription } from "@bancada/service-kit";
import type { Subjects } from "@bancada/contracts";

interface Watched {
  lastSeen: number;
  lost: AbortController;
}

export class CallWatch {
  readonly #calls = new Map<string, Watched>();
  readonly #lostAfterMs: number;
  #subscription: BusSubscription | undefined;
  #sweep: NodeJS.Timeout | undefined;

  constructor(lostAfterMs: number) {
    this.#lostAfterMs = lostAfterMs;
  }

  start(bus: Bus, subjects: Subjects): void {
    this.#subscription = bus.subscribe(subjects.running, (message) => {
      const { callIds } = decodeJson(message.data) as { callIds?: unknown };
      if (!Array.isArray(callIds)) return;
      const now = Date.now();
      for (const callId of callIds) {
        const watched = typeof callId === "string" ? this.#calls.get(callId) : undefined;
        if (watched) watched.lastSeen = now;
      }
    });
    this.#sweep = setInterval(() => this.#giveUpSilent(), Math.max(100, Math.min(1_000, this.#lostAfterMs / 4)));
    this.#sweep.unref();
  }

  /** Watches one call until `done` runs; its signal aborts when no replica has named the call for too long. */
  watch(callId: string): { lost: AbortSignal; done(): void } {
    const watched: Watched = { lastSeen: Date.now(), lost: new AbortController() };
    this.#calls.set(callId, watched);
    return { lost: watched.lost.signal, done: () => this.#calls.delete(callId) };
  }

  stop(): void {
    this.#subscription?.unsubscribe();
    clearInterval(this.#sweep);
  }

  #giveUpSilent(): void {
    const now = Date.now();
    for (const [callId, watched] of this.#calls) {
      if (now - watched.lastSeen < this.#lostAfterMs) continue;
      this.#calls.delete(callId);
      watched.lost.abort();
    }
  }
}
