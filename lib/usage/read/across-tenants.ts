import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { DAY_MS, HOUR_MS, MINUTE_MS, minuteIndexKey, minuteOf } from "@/lib/usage/keys";
import { watermarks, type RowContext } from "@/lib/usage/read/rows";
import type { ScopedRow } from "@/lib/usage/read/scoped-reader";
import { totalStretches, type Stretch, type StretchTable } from "@/lib/usage/read/total-stretches";
import {
  addOutcome,
  fieldsOf,
  leaseFieldsOf,
  readMinute,
  type MinuteHash,
} from "@/lib/usage/store/redis-read";
import { addLeaseTally, atExpiry } from "@/lib/usage/lease-fields";
import { ZERO_COUNTS } from "@/lib/usage/types";
import {
  summedPerSeries,
  summedPerStep,
  visibleAmong,
  visibleTenantSeries,
} from "@/lib/control/data/usage/tenants-usage";

// The usage index across many tenants (10,000): the rolled-up part in two queries over all
// their own series (tenants-usage.ts), the minutes the rollup has not reached from Redis, for
// the tenants its minute index names (those with checks in that minute), not for every one.
// Rolled-up minutes have no seconds: the chart is drawn a minute a step at least, and an hour
// a step past an hour's range (10,000 tenants' minutes of a day are 14 million rows).

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

/**
 * A minute's leases into the step rows and the tenant's total, as the rolled-up part has them
 * (an expiry still ahead has not happened).
 */
function addRecentLeases(
  hash: MinuteHash,
  minute: number,
  at: { stretch: Stretch; stepMs: number; now: number; from: number; slug: string },
  into: { steps: Map<number, ScopedRow>; tenants: Map<string, ScopedRow> },
): void {
  const { stretch, stepMs, now, from, slug } = at;
  for (const f of leaseFieldsOf(hash)) {
    const exact = minute * MINUTE_MS + f.second * 1_000;
    if (exact < stretch.from || exact >= stretch.to || (atExpiry(f.tally) && exact > now)) continue;
    const t = Math.floor(exact / stepMs) * stepMs;
    let step = into.steps.get(t);
    if (!step) into.steps.set(t, (step = row(t, "")));
    let total = into.tenants.get(slug);
    if (!total) into.tenants.set(slug, (total = row(from, slug)));
    addLeaseTally(step, f.tally, f.count);
    addLeaseTally(total, f.tally, f.count);
  }
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
          addRecentLeases(hash, m, { stretch, stepMs, now: ctx.now, from, slug }, into);
        }
      }),
    );
  }
}

export async function acrossTenants(
  principal: Principal,
  from: number,
  to: number,
  requestedStepMs: number,
  ctx: RowContext,
): Promise<AcrossTenants> {
  // a minute a step at least (what minutes hold), an hour past an hour's range (what hours hold)
  const stepMs = Math.max(requestedStepMs, to - from > HOUR_MS ? HOUR_MS : MINUTE_MS);
  const marks = await watermarks(ctx);
  const forSteps = totalStretches(from, to, marks, tableFor(stepMs));
  const forTotals = totalStretches(from, to, marks);
  const refs = await visibleTenantSeries(principal);
  const ids = refs.map((r) => r.seriesId);
  const [perStep, perSeries] = await Promise.all([
    summedPerStep(ids, forSteps.rolled, stepMs),
    summedPerSeries(ids, forTotals.rolled),
  ]);
  const slugOf = new Map(refs.map((r) => [r.seriesId, r.slug]));
  const steps = new Map(perStep.map((p) => [p.t, { ...p, keyId: "", route: "", tenant: "" }]));
  const tenants = new Map<string, ScopedRow>();
  for (const { seriesId, ...counts } of perSeries) {
    const slug = slugOf.get(seriesId);
    if (slug !== undefined) tenants.set(slug, { ...counts, t: from, keyId: "", route: "", tenant: slug });
  }
  // the same stretch of Redis in both cuts (what follows the minute watermark)
  await addRecent(principal, ctx, forSteps.recent, stepMs, from, { steps, tenants });
  return { stepMs, series: [...steps.values()], byTenant: [...tenants.values()] };
}
