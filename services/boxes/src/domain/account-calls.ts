/**
 * How much box work one account may have in flight on this replica at once: exec, read_file, write_file,
 * start_job, job_logs and transfer uploads and downloads each hold one place while they run (BOXES_ACCOUNT_CALLS,
 * default 32). Without it one account's hundreds of concurrent calls took the machine's CPU, process starts and
 * database pool, and another account's one-line exec waited for all of them. Past the limit a call is refused at
 * once, before it reads the database or starts anything: `rate_limited` with a retry hint (the same code as an
 * empty key bucket: "too much at once, retry shortly"). Counted per replica (a box's calls run on its node), in
 * memory: a restart forgets nothing that still runs.
 */
import { DomainError, ErrorCode } from "@bancada/contracts";

/** What a refused caller is told to wait before trying again. */
const retryAfterMs = 1_000;

export class AccountCalls {
  readonly #inFlight = new Map<string, number>();
  readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  /** Takes one place for the account (rate_limited when none is left); the function returned gives it back, once. */
  enter(accountId: string, action: string): () => void {
    const used = this.#inFlight.get(accountId) ?? 0;
    if (used >= this.max) {
      throw new DomainError(
        ErrorCode.rateLimited,
        `This workspace already has ${used} box calls running on this machine (exec, file, job and transfer calls; at most ${this.max} at once), ` +
          `so ${action} was not started. Wait for some to finish, then retry in about ${retryAfterMs / 1000} s; for many long commands use start_job.`,
        { retryAfterMs, limit: "accountCalls", inFlight: used, max: this.max },
      );
    }
    this.#inFlight.set(accountId, used + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#inFlight.get(accountId) ?? 1) - 1;
      if (left > 0) this.#inFlight.set(accountId, left);
      else this.#inFlight.delete(accountId);
    };
  }

  /** Runs `work` holding one of the account's places. */
  async run<T>(accountId: string, action: string, work: () => Promise<T>): Promise<T> {
    const leave = this.enter(accountId, action);
    try {
      return await work();
    } finally {
      leave();
    }
  }
}
