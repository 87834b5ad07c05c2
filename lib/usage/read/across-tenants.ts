import "server-only";
import { isOperator, type Principal } from "@/lib/shared/principal";
import type { Counts } from "@/lib/shared/usage-counts";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "@/lib/usage/keys";
import { watermarks, type RowContext } from "@/lib/usage/read/rows";
import type { ScopedRow } from "@/lib/usage/read/scoped-reader";
import { ZERO_COUNTS } from "@/lib/usage/types";
import { totalStretches, type StretchTable } from "@/lib/usage/read/total-stretches";
import { addRecent, recentActivity } from "@/lib/usage/read/across-tenants-recent";
import { BREAKDOWN_TOP } from "@/lib/usage/read/query";
import type { TableStretch } from "@/lib/control/data/usage/series-totals";
import {
  summedPerStep,
  summedPerTenant,
  visibleTenantSeries,
  type TenantTotals,
} from "@/lib/control/data/usage/tenants-usage";
import { installationSeriesId } from "@/lib/control/data/usage/installation-series";

// The usage index across many tenants (10,000). The rolled-up part: the chart from the
// installation's series for those who see every tenant (one series, written by the rollup),
// else from their tenants' own series summed; the breakdown ranked in one query over every
// tenant's own series, which names the busiest only (tenants-usage.ts). The minutes the
// rollup has not reached come from Redis (across-tenants-recent.ts). Rolled-up minutes have
// no seconds: the chart is drawn a minute a step at least, and an hour a step past an hour's
// range.

export interface AcrossTenants {
  stepMs: number;
  /** per step, summed over tenants (tenant "") */
  series: ScopedRow[];
  /** per tenant over the whole range (t = from): the busiest, and those with recent checks */
  byTenant: ScopedRow[];
  /** the other tenants' checks over the range, summed */
  others: Counts;
}

const tableFor = (stepMs: number): StretchTable =>
  stepMs < HOUR_MS ? "minute" : stepMs < DAY_MS ? "hour" : "day";

const NO_TENANTS: TenantTotals = {
  named: [],
  others: ZERO_COUNTS,
};

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
  // the same stretch of Redis in both cuts (what follows the minute watermark)
  const activity = await recentActivity(ctx, forSteps.recent);
  const [perStep, perTenant] = await Promise.all([
    rolledSteps(principal, forSteps.rolled, stepMs),
    options.tenants === false
      ? NO_TENANTS
      : summedPerTenant(principal, forTotals.rolled, { top: BREAKDOWN_TOP, tenantIds: activity.active }),
  ]);
  const steps = new Map(perStep.map((p) => [p.t, { ...p, keyId: "", route: "", tenant: "" }]));
  const tenants = new Map<string, ScopedRow>(
    perTenant.named.map(({ slug, ...counts }) => [
      slug,
      { ...counts, t: from, keyId: "", route: "", tenant: slug },
    ]),
  );
  await addRecent(principal, ctx, activity, stepMs, from, { steps, tenants });
  return {
    stepMs,
    series: [...steps.values()],
    byTenant: options.tenants === false ? [] : [...tenants.values()],
    others: perTenant.others,
  };
}
