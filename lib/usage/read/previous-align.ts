import type { Counts } from "@/lib/usage/types";

// The previous period of a usage view, laid on the current buckets (previous-period.ts reads
// it): pure, so it is tested without stores.

/** Checks decided: allowed, rejected and degraded (shadow rejections were allowed). */
export const decided = (c: Counts): number => c.allowed + c.rejected + c.degraded;

/** The previous window and its step: per-second data lives only for the seconds retention,
 * so a previous period older than that is read in minutes (spread evenly over its buckets). */
export function previousWindow(
  current: { from: number; to: number; stepMs: number },
  finestFrom: number,
): { from: number; to: number; stepMs: number; shiftMs: number } {
  const shiftMs = current.to - current.from;
  const from = current.from - shiftMs;
  const stepMs = current.stepMs < 60_000 && from < finestFrom ? 60_000 : current.stepMs;
  return { from, to: current.to - shiftMs, stepMs, shiftMs };
}

/** Each current bucket's previous-period checks: the bucket `shiftMs` earlier, a share of it when coarser. */
export function alignPrevious(
  rows: ReadonlyArray<Counts & { t: number }>,
  current: { from: number; to: number; stepMs: number },
  previous: { stepMs: number; shiftMs: number },
): number[] {
  const byBucket = new Map<number, number>();
  for (const row of rows) {
    const t = Math.floor(row.t / previous.stepMs) * previous.stepMs;
    byBucket.set(t, (byBucket.get(t) ?? 0) + decided(row));
  }
  const share = current.stepMs / previous.stepMs;
  const start = Math.floor(current.from / current.stepMs) * current.stepMs;
  const checks: number[] = [];
  for (let t = start; t < current.to; t += current.stepMs) {
    const before = Math.floor((t - previous.shiftMs) / previous.stepMs) * previous.stepMs;
    checks.push((byBucket.get(before) ?? 0) * share);
  }
  return checks;
}
