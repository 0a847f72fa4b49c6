/**
 * The cancellable work this service process runs — a box being created, forked or saved as a snapshot — by
 * box, so that delete_box (which may delete a box in any state) can stop it and wait for it to clean up
 * before removing the box. Work another replica runs (any replica serves any call: box-node.ts) is cancelled
 * there: the operation's row names its process (`instance`), which is asked over the bus (node/replica-link.ts)
 * and answers once its work has ended. A process gone meanwhile ran nothing more; and every state change of the
 * work is conditional on still owning the box's operation (transitions.ts, changeOwnState).
 */
import type { Background } from "./background.js";

interface Entry {
  /** Aborts the work; null: deleting this box waits for the work's part that touches it, without cancelling the rest. */
  controller: AbortController | null;
  done: Promise<unknown>;
}

export class RunningOperations {
  readonly #byBox = new Map<string, Entry>();
  readonly #background: Background;
  #elsewhere: ((instance: string, boxId: string, timeoutMs: number) => Promise<void>) | null = null;

  constructor(background: Background) {
    this.#background = background;
  }

  /** How another replica's work is cancelled (set by node/replica-link.ts). */
  cancelElsewhereWith(cancel: ((instance: string, boxId: string, timeoutMs: number) => Promise<void>) | null): void {
    this.#elsewhere = cancel;
  }

  /** Runs `work` in the background, cancellable through the boxes it names. */
  run<T>(boxId: string, label: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const done = this.#background.run(label, () => work(controller.signal));
    this.track(boxId, controller, done);
    return done;
  }

  /** Registers `done` under `boxId`; with a null controller, deleting the box waits for `done` and aborts nothing. */
  track(boxId: string, controller: AbortController | null, done: Promise<unknown>): void {
    const entry = { controller, done };
    this.#byBox.set(boxId, entry);
    void done
      .catch(() => {})
      .finally(() => {
        if (this.#byBox.get(boxId) === entry) this.#byBox.delete(boxId);
      });
  }

  /** When this process runs work for the box: a promise of its end (never rejecting); otherwise null. */
  ended(boxId: string): Promise<void> | null {
    const entry = this.#byBox.get(boxId);
    return entry
      ? entry.done.then(
          () => {},
          () => {},
        )
      : null;
  }

  /**
   * Cancels the box's work and waits for it to end, at most `timeoutMs`: this process's, or — `instance` naming
   * another process (the operation row's) — that one's.
   */
  async cancel(boxId: string, timeoutMs: number, instance?: string): Promise<void> {
    const entry = this.#byBox.get(boxId);
    if (!entry) {
      if (instance !== undefined) await this.#elsewhere?.(instance, boxId, timeoutMs);
      return;
    }
    entry.controller?.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      entry.done.catch(() => {}),
      new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }
}
