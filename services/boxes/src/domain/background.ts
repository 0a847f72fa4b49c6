/**
 * Work that outlives the call that started it (create_box with wait: false, a delete in progress).
 * Failures are logged, never unhandled; stop() lets running work finish before the service exits.
 */
import type { Logger } from "@bancada/service-kit";

export class Background {
  readonly #running = new Set<Promise<unknown>>();
  readonly #log: Logger;

  constructor(log: Logger) {
    this.#log = log;
  }

  run<T>(label: string, work: () => Promise<T>): Promise<T> {
    const promise = work();
    const tracked = promise.catch((error: unknown) => this.#log.error({ err: error, work: label }, "background work failed"));
    this.#running.add(tracked);
    void tracked.finally(() => this.#running.delete(tracked));
    return promise;
  }

  /** Waits for running work, at most `timeoutMs`: what is still running then is settled by the next start's recovery. */
  async settled(timeoutMs = 15_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (this.#running.size > 0 && Date.now() < until) {
      await Promise.race([
        Promise.allSettled([...this.#running]),
        new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now())).unref()),
      ]);
    }
  }
}
