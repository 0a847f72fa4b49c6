/**
 * The box row an exec's owner lookup (box-owner.ts) has just read, handed to the same call's handler, so that an exec
 * reads its box once instead of twice: the tool host looks the owner up, then runs the handler, and passes nothing
 * from one to the other. Each row is taken once, and only within `freshMs` of its read; a handler that finds none
 * (a call forwarded from another node, a slow machine) reads the box itself. Acting on a row read that much earlier
 * is the same as the call arriving that much earlier: an exec claims nothing, so the state it acts on is always one
 * read moments before.
 */
import type { BoxRow } from "../db/client.js";

const freshMs = 200;
/** Rows not taken (a call that failed before its handler read the box) are dropped once this many wait. */
const mostWaiting = 1_000;

export class JustReadBoxes {
  readonly #rows = new Map<string, { row: BoxRow; at: number }>();

  put(accountId: string, ref: string, row: BoxRow): void {
    if (this.#rows.size >= mostWaiting) this.#dropStale();
    this.#rows.set(keyOf(accountId, ref), { row, at: performance.now() });
  }

  take(accountId: string, ref: string): BoxRow | undefined {
    const key = keyOf(accountId, ref);
    const kept = this.#rows.get(key);
    if (!kept) return undefined;
    this.#rows.delete(key);
    return performance.now() - kept.at <= freshMs ? kept.row : undefined;
  }

  #dropStale(): void {
    const now = performance.now();
    for (const [key, kept] of this.#rows) if (now - kept.at > freshMs) this.#rows.delete(key);
    if (this.#rows.size >= mostWaiting) this.#rows.clear();
  }
}

const keyOf = (accountId: string, ref: string) => `${accountId}\0${ref}`;
