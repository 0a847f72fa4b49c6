/** What the boxes benchmarks share: the caller they act as, timing, percentiles and a table row. */
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A caller of the bench's own account with the given scopes, writes allowed. */
export function benchPrincipal(scopes: string[]) {
  return {
    keyId: "bench",
    accountId: "bench",
    personId: "bench",
    agentId: "bench",
    scopes,
    allowWrites: true,
    allowedBoardIds: null,
    profile: "full" as const,
  };
}

/** Milliseconds the work took. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

export function stats(samples: number[]): { p50: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
}

/** The first cell left-aligned in `first` columns, the others right-aligned in `rest`. */
export function tableRow(cells: string[], first: number, rest = 10): string {
  return cells.map((cell, index) => (index === 0 ? cell.padEnd(first) : cell.padStart(rest))).join(" ");
}

export function loadAverage(): string[] {
  return loadavg().map((value) => value.toFixed(1));
}

/** Unmounts what a bench's data folder still has mounted (the XFS disk store, box disks), deepest first. */
export async function unmountAll(dataDir: string): Promise<void> {
  const text = await readFile("/proc/self/mountinfo", "utf8");
  const points = text
    .split("\n")
    .map((line) => line.split(" ")[4] ?? "")
    .filter((point) => point.startsWith(`${dataDir}/`))
    .sort()
    .reverse();
  for (const point of points) await run("umount", ["-l", point]);
}
