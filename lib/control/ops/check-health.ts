import "server-only";
import { z } from "zod";
import { isOperator, type Principal } from "@/lib/shared/principal";
import { ForbiddenError } from "@/lib/control/errors/errors";
import { withStore } from "@/lib/control/data/counters-store";
import { redis } from "@/lib/shared/redis/redis";
import { env } from "@/lib/shared/env";
import { wallNow } from "@/lib/shared/wall-clock";
import {
  addFigures,
  healthFiguresSchema,
  latencyQuantile,
  zeroFigures,
  type HealthFigures,
} from "@/lib/check/health/health-figures";
import { HEALTH_KEEP_MINUTES, healthMinuteKey } from "@/lib/check/health/health-keys";

// The check endpoint's health for operators: each front's per-minute summary
// (lib/check/health/health-publisher.ts) summed over the fronts, minute by minute, with the
// latency quantiles read from the summed buckets. The figures are the whole installation's:
// no per-tenant latency is kept, so tenant roles are refused (they see their own degraded
// answers by cause on their usage pages).

export const CheckHealthQuery = z.strictObject({
  minutes: z.coerce
    .number({ error: "must be a whole number of minutes" })
    .int({ error: "must be a whole number of minutes" })
    .min(1, { error: "must be at least 1" })
    .max(HEALTH_KEEP_MINUTES, { error: `must be at most ${HEALTH_KEEP_MINUTES}` })
    .optional(),
});
export type CheckHealthQuery = z.output<typeof CheckHealthQuery>;

export interface HealthRow extends Omit<HealthFigures, "latency"> {
  /** the minute's start (UTC) */
  at: string;
  /** front processes that reported in this minute */
  fronts: number;
  /** latency quantiles in milliseconds, null without checks */
  p50Ms: number | null;
  p99Ms: number | null;
}

export interface CheckHealth {
  /** newest first; minutes no front reported are left out */
  minutes: HealthRow[];
  /** the whole span, its quantiles from all its buckets */
  total: HealthRow;
  spanMinutes: number;
}

const ms = (seconds: number | null): number | null =>
  seconds === null ? null : Math.round(seconds * 1e5) / 100;

function row(at: number, fronts: number, figures: HealthFigures): HealthRow {
  const { latency, ...counts } = figures;
  return {
    at: new Date(at).toISOString(),
    fronts,
    p50Ms: ms(latencyQuantile(latency, 0.5)),
    p99Ms: ms(latencyQuantile(latency, 0.99)),
    ...counts,
  };
}

/** One minute's fronts summed; a field that does not parse is skipped (and not counted). */
function sumFronts(fields: Record<string, string>): { fronts: number; figures: HealthFigures } {
  const figures = zeroFigures();
  let fronts = 0;
  for (const text of Object.values(fields)) {
    try {
      const parsed = healthFiguresSchema.safeParse(JSON.parse(text));
      if (!parsed.success) continue;
      addFigures(figures, parsed.data);
      fronts++;
    } catch {
      // a field that is not JSON: another version's or a damaged one
    }
  }
  return { fronts, figures };
}

export async function readCheckHealth(
  principal: Principal,
  query: CheckHealthQuery,
  /** the fronts' key prefix (REDIS_PREFIX; a test's own) */
  prefix: string = env().REDIS_PREFIX,
): Promise<CheckHealth> {
  if (!isOperator(principal)) throw new ForbiddenError("The check endpoint's health is for operators.");
  const span = query.minutes ?? 60;
  const current = Math.floor(wallNow() / 60_000);
  const minutes = Array.from({ length: span }, (_, i) => current - i);
  const replies = await withStore(async () => {
    const pipe = redis().pipeline();
    for (const m of minutes) pipe.hgetall(healthMinuteKey(prefix, m));
    return (await pipe.exec()) ?? [];
  });
  const rows: HealthRow[] = [];
  const total = zeroFigures();
  let fronts = 0;
  minutes.forEach((m, i) => {
    const [error, value] = replies[i] ?? [null, {}];
    if (error) throw error;
    const minute = sumFronts((value ?? {}) as Record<string, string>);
    if (minute.fronts === 0) return;
    rows.push(row(m * 60_000, minute.fronts, minute.figures));
    addFigures(total, minute.figures);
    fronts = Math.max(fronts, minute.fronts);
  });
  return { minutes: rows, total: row((current - span + 1) * 60_000, fronts, total), spanMinutes: span };
}
