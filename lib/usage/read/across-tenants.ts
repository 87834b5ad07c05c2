import "server-only";
import { isOperator, type Principal } from "@/lib/shared/principal";
import { DAY_MS, HOUR_MS, MINUTE_MS, minuteIndexKey, minuteOf } from "@/lib/usage/keys";
import { watermarks, type RowContext } from "@/lib/usage/read/rows";
import type { ScopedRow } from "@/lib/usage/read/scoped-reader";
import { totalStretches, type Stretch, type StretchTable } from "@/lib/usage/read/total-stretches";
import { addOutcome, fieldsOf, readMinute } from "@/lib/usage/store/redis-read";
import { ZERO_COUNTS } from "@/lib/usage/types";
import type { Counts } from "@/lib/shared/usage-counts";
import type { TableStretch } from "@/lib/control/data/usage/series-totals";
import {
  summedPerStep,
  summedPerTenant,
  visibleAmong,
  visibleTenantSeries,
} from "@/lib/control/data/usage/tenants-usage";
import { installationSeriesId } from "@/lib/control/data/usage/installation-series";

// The usage index across many tenants (10,000). The rolled-up part: the chart from the
// installation's series for those who see every tenant (one series, written by the rollup),
// else from their tenants' own series summed; the breakdown from every tenant's own series
// summed over the range, in one query (tenants-usage.ts). The minutes the rollup has not
// reached come from Redis, for the tenants its minute index names (those with checks in that
// minute), not for every one. Rolled-up minutes have no seconds: the chart is drawn a minute a
// step at least, and an hour a step past an hour's range.

export interface AcrossTenants {
  stepMs: number;
  /** per step, summed over tenants (tenant "") */
  series: ScopedRow[];
  /** per tenant over the whole range (t = from) */
  byTenant: ScopedRow[];
}

const tableFor = (stepMs: number): StretchTable =>
  stepMs < HOUR_MS ? "minute" : stepMs < DAY_MS ? "hour" : "day";

function row(t: number, tenant: string): ScopedRow {
  return { t, keyId: "", route: "", tenant, ...ZERO_COUNTS };
}

/** The recent stretches from Redis into the two maps: each minute's active tenants only. */
async function addRecent(
  principal: Principal,
  ctx: RowContext,
  recent: Stretch[],
  stepMs: number,
  from: number,
  into: { steps: Map<number, ScopedRow>; tenants: Map<string, ScopedRow> },
): Promise<void> {
  const oldest = minuteOf(ctx.now - ctx.secondsRetentionMs);
  for (const stretch of recent) {
    const minutes: number[] = [];
    for (
      let m = Math.max(minuteOf(stretch.from), oldest);
      m * MINUTE_MS < stretch.to && m <= minuteOf(ctx.now);
      m++
    )
      minutes.push(m);
    const active = new Set<string>();
    for (const m of minutes)
      for (const id of await ctx.client.smembers(minuteIndexKey(ctx.ns, m))) active.add(id);
    const tenants = await visibleAmong(principal, [...active]);
    await Promise.all(
      tenants.map(async ({ id, slug }) => {
        for (const m of minutes) {
          const hash = await readMinute(ctx.client, ctx.ns, id, m);
          if (!hash) continue;
          for (const f of fieldsOf(hash)) {
            const exact = m * MINUTE_MS + f.second * 1_000;
            if (exact < stretch.from || exact >= stretch.to) continue;
            const t = Math.floor(exact / stepMs) * stepMs;
            let step = into.steps.get(t);
            if (!step) into.steps.set(t, (step = row(t, "")));
            let total = into.tenants.get(slug);
            if (!total) into.tenants.set(slug, (total = row(from, slug)));
            addOutcome(step, f.outcome, f.count);
            addOutcome(total, f.outcome, f.count);
          }
        }
      }),
    );
  }
}

/** The chart's rolled-up steps: one series for those who see every tenant. */
async function rolledSteps(
  principal: Principal,
  stretches: TableStretch[],
  stepMs: number,
): Promise<Array<Counts & { t: number }>> {
  if (isOperator(principal)) {
    const id = await installationSeriesId();
    return id === null ? [] : summedPerStep([id], stretches, stepMs);
  }
  const ids = (await visibleTenantSeries(principal)).map((r) => r.seriesId);
  return summedPerStep(ids, stretches, stepMs);
}

/** `tenants: false` reads the chart only (the comparison's previous period). */
export async function acrossTenants(
  principal: Principal,
  from: number,
  to: number,
  requestedStepMs: number,
  ctx: RowContext,
  options: { tenants?: boolean } = {},
): Promise<AcrossTenants> {
  // a minute a step at least (what minutes hold), an hour past an hour's range (what hours hold)
  const stepMs = Math.max(requestedStepMs, to - from > HOUR_MS ? HOUR_MS : MINUTE_MS);
  const marks = await watermarks(ctx);
  const forSteps = totalStretches(from, to, marks, tableFor(stepMs));
  const forTotals = totalStretches(from, to, marks);
  const [perStep, perTenant] = await Promise.all([
    rolledSteps(principal, forSteps.rolled, stepMs),
    options.tenants === false ? [] : summedPerTenant(principal, forTotals.rolled),
  ]);
  const steps = new Map(perStep.map((p) => [p.t, { ...p, keyId: "", route: "", tenant: "" }]));
  const tenants = new Map<string, ScopedRow>(
    perTenant.map(({ slug, ...counts }) => [slug, { ...counts, t: from, keyId: "", route: "", tenant: slug }]),
  );
  // the same stretch of Redis in both cuts (what follows the minute watermark)
  await addRecent(principal, ctx, forSteps.recent, stepMs, from, { steps, tenants });
  return { stepMs, series: [...steps.values()], byTenant: options.tenants === false ? [] : [...tenants.values()] };
}
