/** The upkeep loop every service uses: no overlapping rounds, failures logged and retried, stop waits. */
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { createLogger, startPeriodicJob } from "../src/index.js";

const log = createLogger("periodic-test", "silent");

describe("startPeriodicJob", () => {
  it("when a round takes longer than the interval, then rounds never overlap, and stop waits for the one in progress", async () => {
    let running = 0;
    let most = 0;
    let rounds = 0;
    let finished = 0;
    const job = startPeriodicJob({
      name: "slow",
      intervalMs: 10,
      runNow: true,
      log,
      run: async () => {
        running++;
        rounds++;
        most = Math.max(most, running);
        await sleep(60);
        running--;
        finished++;
      },
    });
    await sleep(200);
    await job.stop();
    expect(most).toBe(1);
    expect(rounds).toBeGreaterThanOrEqual(2);
    expect(finished).toBe(rounds);
    await sleep(50);
    expect(rounds).toBe(finished);
  });

  it("when a round fails, then the failure is logged under the job's name and the next round runs", async () => {
    const warnings: string[] = [];
    const spy = { ...log, warn: (_: unknown, message: string) => void warnings.push(message) } as unknown as typeof log;
    let calls = 0;
    const job = startPeriodicJob({
      name: "flaky upkeep",
      intervalMs: 20,
      runNow: true,
      log: spy,
      run: async () => {
        calls++;
        if (calls === 1) throw new Error("first round breaks");
      },
    });
    await sleep(100);
    await job.stop();
    expect(warnings).toEqual(["flaky upkeep failed"]);
    expect(calls).toBeGreaterThanOrEqual(2);
  });
});
