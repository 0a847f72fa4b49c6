/**
 * What boxes cost over a window, from their state intervals (box_intervals: one row per state a box was in).
 * While `running` a box pays for its vCPUs and memory by the millisecond; in every state until it is deleted
 * it pays for its disk (dataGiB), pro rata of the month; a snapshot saved from it pays for the bytes it takes
 * while it is kept. Everything is integer attoreais (money.ts): exact.
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

/** A ready snapshot: stored from `since`, never deleted (the product has no tool to delete one). */
export interface StoredSnapshot {
  /** The box it was saved from: its storage is part of that box's cost. */
  boxId: string;
  since: Date;
  /** When it was deleted (its storage is billed until then), or null: kept. */
  until?: Date | null;
  sizeBytes: bigint;
}

export interface CostWindow {
  start: Date;
  end: Date;
  /** Where a state still open is counted up to: now for what was spent, the window's end for a forecast. */
  openUntil: Date;
}

const gib = 1n << 30n;

/** The exact cost of each box over the window, in attoreais (its snapshots' storage included). */
export function boxCosts(
  intervals: IntervalSlice[],
  prices: PriceTable,
  window: CostWindow,
  snapshots: StoredSnapshot[] = [],
): Map<string, bigint> {
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
  const snapshotByteMs = new Map<string, bigint>();
  for (const snapshot of snapshots) {
    const from = Math.max(snapshot.since.getTime(), start);
    const to = Math.min(snapshot.until?.getTime() ?? Infinity, window.openUntil.getTime(), end);
    running.set(snapshot.boxId, running.get(snapshot.boxId) ?? 0n);
    if (to > from) snapshotByteMs.set(snapshot.boxId, (snapshotByteMs.get(snapshot.boxId) ?? 0n) + snapshot.sizeBytes * BigInt(to - from));
  }
  const monthMs = BigInt(end - start);
  const costs = new Map<string, bigint>();
  for (const [boxId, atto] of running) {
    // GiB·ms ÷ month ms = GiB-months; × femtoreais × 1000 = attoreais. The one division, floored (< 1 attoreal).
    const disk = ((diskGiBMs.get(boxId) ?? 0n) * prices.diskGiBMonth * 1000n) / monthMs;
    // Snapshot bytes·ms ÷ (GiB × month ms) = GiB-months of what the snapshot takes on disk.
    const stored = ((snapshotByteMs.get(boxId) ?? 0n) * prices.snapshotGiBMonth * 1000n) / (gib * monthMs);
    costs.set(boxId, atto + disk + stored);
  }
  return costs;
}
