import { z } from "zod";
import { DEGRADED_CAUSES, type DegradedCause } from "@/lib/check/types";

// The check endpoint's health in a few numbers: what each front publishes per minute
// (health-publisher.ts) and what the console sums over the fronts. Counts only, so the
// fronts' figures add up; latency as the counts of sluice_check_duration_seconds' buckets,
// from which the quantiles are read after the sum.

/** Upper bounds (seconds) of the latency buckets: sluice_check_duration_seconds' own. */
export const LATENCY_BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1] as const;

export const healthFiguresSchema = z.object({
  /** check requests answered (a batch counts once) */
  requests: z.number().nonnegative(),
  /** per latency bucket, the last one above 1 s: LATENCY_BOUNDS.length + 1 counts */
  latency: z.array(z.number().nonnegative()).length(LATENCY_BOUNDS.length + 1),
  /** decisions, by outcome */
  allowed: z.number().nonnegative(),
  rejected: z.number().nonnegative(),
  degraded: z.number().nonnegative(),
  /** degraded decisions by cause */
  causes: z.record(z.enum(DEGRADED_CAUSES as [DegradedCause, ...DegradedCause[]]), z.number().nonnegative()),
  /** answers with a 5xx status, or a gRPC status other than OK */
  errors: z.number().nonnegative(),
  /** 429s before any decision (fair share, service limit) */
  refused: z.number().nonnegative(),
  /** single checks answered past the timeout + 50 ms, by cause (sluice_check_late_answers_total) */
  lateStarved: z.number().nonnegative(),
  lateWaited: z.number().nonnegative(),
});
export type HealthFigures = z.output<typeof healthFiguresSchema>;

export function zeroFigures(): HealthFigures {
  const causes = {} as Record<DegradedCause, number>;
  for (const cause of DEGRADED_CAUSES) causes[cause] = 0;
  return {
    requests: 0,
    latency: new Array<number>(LATENCY_BOUNDS.length + 1).fill(0),
    allowed: 0,
    rejected: 0,
    degraded: 0,
    causes,
    errors: 0,
    refused: 0,
    lateStarved: 0,
    lateWaited: 0,
  };
}

const SCALARS = [
  "requests",
  "allowed",
  "rejected",
  "degraded",
  "errors",
  "refused",
  "lateStarved",
  "lateWaited",
] as const;

/** into += sign * more, field by field. */
export function addFigures(into: HealthFigures, more: HealthFigures, sign: 1 | -1 = 1): HealthFigures {
  for (const field of SCALARS) into[field] += sign * more[field];
  into.latency = into.latency.map((n, i) => n + sign * (more.latency[i] ?? 0));
  for (const cause of DEGRADED_CAUSES)
    into.causes[cause] = (into.causes[cause] ?? 0) + sign * (more.causes[cause] ?? 0);
  return into;
}

/** What happened between two cumulative readings of one process. */
export function figuresSince(now: HealthFigures, before: HealthFigures): HealthFigures {
  return addFigures(addFigures(zeroFigures(), now), before, -1);
}

/**
 * The q-quantile of the latency buckets in seconds, interpolated within its bucket (as
 * Prometheus' histogram_quantile); above the last bound it is that bound. null without data.
 */
export function latencyQuantile(buckets: readonly number[], q: number): number | null {
  const total = buckets.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  for (let i = 0; i < buckets.length; i++) {
    const count = buckets[i] ?? 0;
    if (below + count >= rank && count > 0) {
      const upper = LATENCY_BOUNDS[i];
      if (upper === undefined) return LATENCY_BOUNDS[LATENCY_BOUNDS.length - 1] ?? null;
      const lower = i === 0 ? 0 : (LATENCY_BOUNDS[i - 1] ?? 0);
      return lower + (upper - lower) * ((rank - below) / count);
    }
    below += count;
  }
  return LATENCY_BOUNDS[LATENCY_BOUNDS.length - 1] ?? null;
}
