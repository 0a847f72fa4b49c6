/**
 * The cancellable work this service process runs — a box being created, forked or saved as a snapshot — by
 * box, so that delete_box (which may delete a box in any state) can stop it and wait for it to clean up
 * before removing the box. Work another process runs is not reachable from here: it notices on its own, as
 * its every state change is conditional on still owning the box's operation (transitions.ts, changeOwnState).
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

  constructor(background: Background) {
    this.#background = background;
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

  /** Cancels the box's work (when this process runs it) and waits for it to end, at most `timeoutMs`. */
  async cancel(boxId: string, timeoutMs: number): Promise<void> {
    const entry = this.#byBox.get(boxId);
    if (!entry) return;
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
