import type { Logger } from "./logger.js";

export interface PeriodicJob {
  /** No new round starts; resolves when the round in progress (if any) has ended. */
  stop(): Promise<void>;
}

/**
 * A service's upkeep (expiry of idempotency records, housekeeping, watching boxes): a round every
 * `intervalMs`, never two at once, a failure logged as `<name> failed` and retried at the next round.
 * `runNow` starts the first round at once instead of after one interval.
 */
export function startPeriodicJob(options: {
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
  log: Logger;
  runNow?: boolean;
}): PeriodicJob {
  let current: Promise<void> | null = null;
  const round = () => {
    if (current) return;
    current = options
      .run()
      .then(
        () => {},
        (error: unknown) => options.log.warn({ err: error }, `${options.name} failed`),
      )
      .finally(() => (current = null));
  };
  const timer = setInterval(round, options.intervalMs).unref();
  if (options.runNow) round();
  return {
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}
