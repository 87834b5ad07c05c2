import type { UsagePoint } from "@/lib/usage/types";

// The rejection-rate series (isomorphic, no React): rejected over decided per bucket, null
// where nothing was decided, and which points stand alone between gaps.

export interface RatePoint {
  t: number;
  rate: number | null;
}

export function ratePoints(points: readonly UsagePoint[]): RatePoint[] {
  return points.map((p) => {
    const decided = p.allowed + p.rejected + p.degraded;
    return { t: p.t, rate: decided === 0 ? null : p.rejected / decided };
  });
}

/** Indexes of points with a rate whose neighbours have none (no segment to draw). */
export function isolatedPoints(data: readonly RatePoint[]): Set<number> {
  const out = new Set<number>();
  data.forEach((d, i) => {
    if (d.rate !== null && (data[i - 1]?.rate ?? null) === null && (data[i + 1]?.rate ?? null) === null)
      out.add(i);
  });
  return out;
}

/** Start of the bucket `now` falls in (still filling), when it is the series' last. */
export function fillingBucketStart(
  points: readonly { t: number }[],
  stepMs: number,
  now: number,
): number | null {
  const last = points[points.length - 1];
  if (!last || now < last.t || now >= last.t + stepMs) return null;
  return last.t;
}
