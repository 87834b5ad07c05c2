// Percentiles of measured times (nearest rank: p99 of 50 samples is the 50th, the worst).

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((x, y) => x - y);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export interface Spread {
  n: number;
  p50: number;
  p99: number;
  max: number;
  /** samples over 50 ms */
  over50: number;
}

export function spread(samples: readonly number[]): Spread {
  return {
    n: samples.length,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    max: samples.length === 0 ? Number.NaN : Math.max(...samples),
    over50: samples.filter((ms) => ms > 50).length,
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `done` until it holds or `capMs` passes; the time it took, or null when cut. */
export async function waitFor(done: () => Promise<boolean>, capMs: number): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < capMs) {
    if (await done()) return performance.now() - started;
  }
  return null;
}
