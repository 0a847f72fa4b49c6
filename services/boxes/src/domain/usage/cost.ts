/**
 * What boxes cost over a window, from their state intervals (box_intervals: one row per state a box was in).
 * While `running` a box pays for its vCPUs and memory by the millisecond; in every state until it is deleted
 * it pays for its disk (dataGiB), pro rata of the month. Everything is integer attoreais (money.ts): exact.
 */
import type { PriceTable } from "./prices.js";

export interface IntervalSlice {
  boxId: string;
  state: string;
  startedAt: Date;
  /** null: the box is still in this state. */
  endedAt: Date | null;
  vcpus: number;
  memMiB: number;
  dataGiB: number;
}

export interface CostWindow {
  start: Date;
  end: Date;
  /** Where a state still open is counted up to: now for what was spent, the window's end for a forecast. */
  openUntil: Date;
}

/** The exact cost of each box over the window, in attoreais. */
export function boxCosts(intervals: IntervalSlice[], prices: PriceTable, window: CostWindow): Map<string, bigint> {
  const running = new Map<string, bigint>();
  const diskGiBMs = new Map<string, bigint>();
  const start = window.start.getTime();
  const end = window.end.getTime();
  for (const interval of intervals) {
    const from = Math.max(interval.startedAt.getTime(), start);
    const to = Math.min((interval.endedAt ?? window.openUntil).getTime(), end);
    running.set(interval.boxId, running.get(interval.boxId) ?? 0n);
    if (to <= from) continue;
    const ms = BigInt(to - from);
    if (interval.state === "running") {
      const perSecond = BigInt(interval.vcpus) * prices.vcpuSecond + BigInt(interval.memMiB) * prices.mibSecond;
      running.set(interval.boxId, running.get(interval.boxId)! + ms * perSecond);
    }
    if (interval.state !== "deleted") diskGiBMs.set(interval.boxId, (diskGiBMs.get(interval.boxId) ?? 0n) + BigInt(interval.dataGiB) * ms);
  }
  const monthMs = BigInt(end - start);
  const costs = new Map<string, bigint>();
  for (const [boxId, atto] of running) {
    // GiB·ms ÷ month ms = GiB-months; × femtoreais × 1000 = attoreais. The one division, floored (< 1 attoreal).
    const disk = ((diskGiBMs.get(boxId) ?? 0n) * prices.diskGiBMonth * 1000n) / monthMs;
    costs.set(boxId, atto + disk);
  }
  return costs;
}
