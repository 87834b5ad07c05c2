import type { UsagePoint } from "@/lib/usage/types";

/**
 * Where a chart marks "data starts here": `start` when it falls inside the range (after its
 * first bucket) and no bucket before it holds data. The second rule keeps the marker true
 * when usage was written for earlier times (an import, a restored database): then the data
 * itself says where it starts, and no marker is drawn.
 */
export function dataStartMarker(
  series: readonly UsagePoint[],
  from: number,
  stepMs: number,
  start: number | null,
): number | null {
  if (start === null || start <= from + stepMs) return null;
  const firstData = series.find((p) => p.allowed + p.rejected + p.shadowRejected + p.degraded > 0);
  // the bucket that holds `start` may hold data: it began before, but its checks came after
  if (firstData !== undefined && firstData.t + stepMs <= start) return null;
  return start;
}
