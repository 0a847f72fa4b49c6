/**
 * A box frozen under a call that runs in it (exec, read_file, write_file, a transfer) would hold that call until
 * its deadline (an exec up to 600 s) or, for an upload, until someone resumes the box. So whoever freezes a box
 * (suspend_box, the reaper's run limit and idle sleep: `freezeBox`) first tells the calls this process runs in it,
 * and each answers at once: failed_precondition, saying the box was suspended and that resume_box wakes it. The
 * command is killed (its output would otherwise be lost with a caller that already has its answer), an upload
 * writes nothing. Any replica may run a call in a box of any node (box-node.ts), so a freeze is told to every
 * replica (node/replica-link.ts carries it over the bus); an exec also learns of a freeze it missed at its next
 * activity write (every minute, exec.ts).
 */
import { DomainError, ErrorCode } from "@bancada/contracts";
import type { BoxRow } from "../db/client.js";
import type { BoxesRuntime } from "./context.js";
import { boxHandle } from "./find-box.js";

/** Why the box is being frozen: the state it goes to and the reason it will show. */
export interface Freeze {
  state: "suspended" | "sleeping";
  reason: string;
}

type Listener = (freeze: Freeze) => void;

export class BoxSuspensions {
  readonly #listeners = new Map<string, Set<Listener>>();
  #others: ((boxId: string, freeze: Freeze) => void) | null = null;

  /** How a freeze made here reaches the calls the other replicas run (set by node/replica-link.ts). */
  tellOthersWith(tell: ((boxId: string, freeze: Freeze) => void) | null): void {
    this.#others = tell;
  }

  /** Calls `listener` if this process freezes the box; the function returned stops listening. */
  listen(boxId: string, listener: Listener): () => void {
    const set = this.#listeners.get(boxId) ?? new Set<Listener>();
    set.add(listener);
    this.#listeners.set(boxId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#listeners.get(boxId) === set) this.#listeners.delete(boxId);
    };
  }

  /** Tells every call in the box, on every replica, that it is being frozen, with the reason. */
  announce(boxId: string, freeze: Freeze): void {
    this.announceHere(boxId, freeze);
    this.#others?.(boxId, freeze);
  }

  /** Tells the calls this process runs in the box. */
  announceHere(boxId: string, freeze: Freeze): void {
    for (const listener of [...(this.#listeners.get(boxId) ?? [])]) listener(freeze);
  }
}

/** Freezes a running box's processes, first telling the calls running in it (suspend_box and the reapers). */
export async function freezeBox(rt: BoxesRuntime, box: BoxRow, freeze: Freeze): Promise<void> {
  rt.suspensions.announce(box.id, freeze);
  await rt.driver.suspend(boxHandle(box));
}

/** The answer of a call whose box was frozen under it. */
export function suspendedUnder(box: Pick<BoxRow, "id">, action: string, freeze: Freeze, undone: string): DomainError {
  const wake = freeze.state === "sleeping" ? "Call it again: it wakes the box" : "Call resume_box to wake the box, then try again";
  return new DomainError(
    ErrorCode.failedPrecondition,
    `The box was ${freeze.state === "sleeping" ? "put to sleep" : "suspended"} while ${action} ran (${freeze.reason}): ${undone}. ${wake}.`,
    {
      boxId: box.id,
      state: freeze.state,
      reason: freeze.reason,
    },
  );
}

/**
 * Runs `work` in the box; if the box is frozen meanwhile, answers at once with `interrupted` (the signal given to
 * `work` is aborted, so that it stops what it started; whatever it still does ends in the background).
 */
export async function unlessSuspended<T>(
  rt: BoxesRuntime,
  box: Pick<BoxRow, "id">,
  interrupted: (freeze: Freeze) => DomainError,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let stopListening = () => {};
  const suspended = new Promise<never>((_, reject) => {
    stopListening = rt.suspensions.listen(box.id, (freeze) => {
      controller.abort();
      reject(interrupted(freeze));
    });
  });
  const running = work(controller.signal);
  // Once the answer is given, the work's own end (or failure) matters to nobody.
  running.catch(() => {});
  try {
    return await Promise.race([running, suspended]);
  } finally {
    stopListening();
  }
}
