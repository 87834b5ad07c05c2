import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { MINUTE_MS, minuteIndexKey, minuteOf } from "@/lib/usage/keys";
import type { RowContext } from "@/lib/usage/read/rows";
import type { ScopedRow } from "@/lib/usage/read/scoped-reader";
import type { Stretch } from "@/lib/usage/read/total-stretches";
import {
  addOutcome,
  fieldsOf,
  leaseFieldsOf,
  readMinute,
  type MinuteHash,
} from "@/lib/usage/store/redis-read";
import { addLeaseTally, atExpiry } from "@/lib/usage/lease-fields";
import { ZERO_COUNTS } from "@/lib/usage/types";
import { visibleAmong } from "@/lib/control/data/usage/tenants-usage";

// The usage index's minutes the rollup has not reached, from Redis: only the tenants its
// minute index names (those with checks in that minute), not every one. Who they are is
// read first, so the rolled-up ranking can keep them by name (they may climb into the top).

export interface RecentActivity {
  /** each recent stretch with the minutes Redis may still hold of it */
  stretches: Array<{ stretch: Stretch; minutes: number[] }>;
  /** tenant ids with checks in those minutes (visibility not checked yet) */
  active: string[];
}

export async function recentActivity(ctx: RowContext, recent: Stretch[]): Promise<RecentActivity> {
  const oldest = minuteOf(ctx.now - ctx.secondsRetentionMs);
  const active = new Set<string>();
  const stretches: RecentActivity["stretches"] = [];
  for (const stretch of recent) {
    const minutes: number[] = [];
    for (
      let m = Math.max(minuteOf(stretch.from), oldest);
      m * MINUTE_MS < stretch.to && m <= minuteOf(ctx.now);
      m++
    )
      minutes.push(m);
    for (const m of minutes)
      for (const id of await ctx.client.smembers(minuteIndexKey(ctx.ns, m))) active.add(id);
    stretches.push({ stretch, minutes });
  }
  return { stretches, active: [...active] };
}

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

/** The active tenants' recent counts (those the principal sees) into the two maps. */
export async function addRecent(
  principal: Principal,
  ctx: RowContext,
  activity: RecentActivity,
  stepMs: number,
  from: number,
  into: { steps: Map<number, ScopedRow>; tenants: Map<string, ScopedRow> },
): Promise<void> {
  if (activity.active.length === 0) return;
  const tenants = await visibleAmong(principal, activity.active);
  for (const { stretch, minutes } of activity.stretches) {
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
