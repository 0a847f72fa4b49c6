/** Timing helpers: samples in ms from performance.now(), percentiles from the sorted samples (nearest rank). */

export interface Run {
  samples: number[];
  /** Wall-clock time of the whole run, ms. */
  wallMs: number;
  calls: number;
  /** Requests sent again after their keep-alive connection was reset under them (bench/lib/load-worker.mjs). */
  resets?: number;
}

export interface Summary {
  calls: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  perSecond: number;
}

export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1]!;
}

export function summarize(runs: readonly Run[]): Summary {
  const samples = runs.flatMap((run) => run.samples).sort((a, b) => a - b);
  const wallMs = runs.reduce((sum, run) => sum + run.wallMs, 0);
  const calls = runs.reduce((sum, run) => sum + run.calls, 0);
  return {
    calls,
    p50: percentile(samples, 0.5),
    p90: percentile(samples, 0.9),
    p99: percentile(samples, 0.99),
    max: samples.at(-1) ?? Number.NaN,
    mean: samples.reduce((sum, value) => sum + value, 0) / Math.max(1, samples.length),
    perSecond: calls / (wallMs / 1000),
  };
}

/**
 * Calls `call(i)` for i = 0..n-1 with `inFlight` calls outstanding at any time (1 = sequential), each worker
 * taking the next index. Stops early once `budgetMs` has passed (at least `minCalls` calls are made).
 */
export async function run(
  n: number,
  inFlight: number,
  call: (i: number, worker: number) => Promise<void>,
  options: { budgetMs?: number; minCalls?: number } = {},
): Promise<Run> {
  const samples: number[] = [];
  const budgetMs = options.budgetMs ?? Number.POSITIVE_INFINITY;
  const minCalls = options.minCalls ?? 0;
  let next = 0;
  const started = performance.now();
  const worker = async (w: number) => {
    for (;;) {
      const i = next++;
      if (i >= n) return;
      if (i >= minCalls && performance.now() - started > budgetMs) return;
      const t0 = performance.now();
      await call(i, w);
      samples.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, (_, w) => worker(w)));
  return { samples, wallMs: performance.now() - started, calls: samples.length };
}

export const ms = (value: number): string =>
  Number.isFinite(value) ? (value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)) : "—";
export const rate = (value: number): string => (Number.isFinite(value) ? Math.round(value).toLocaleString("en-US") : "—");
export const ratio = (value: number): string => (Number.isFinite(value) ? `${value.toFixed(2)}×` : "—");

/** A Markdown table with right-aligned numeric columns (everything but the first `textColumns`). */
export function table(head: string[], rows: string[][], textColumns = 1): string {
  const widths = head.map((cell, c) => Math.max(cell.length, ...rows.map((row) => (row[c] ?? "").length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, c) => (c < textColumns ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join(" | ")} |`;
  const rule = `| ${widths.map((w, c) => (c < textColumns ? "-".repeat(w) : `${"-".repeat(w - 1)}:`)).join(" | ")} |`;
  return [line(head), rule, ...rows.map(line)].join("\n");
}

export const progress = (message: string): void => void process.stderr.write(`[bench] ${message}\n`);
