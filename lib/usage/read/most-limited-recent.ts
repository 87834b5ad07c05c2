import "server-only";
import type { TenantRef } from "@/lib/control/data/tenant-access";
import { MINUTE_MS, minuteOf, offendersKey } from "@/lib/usage/keys";
import { fieldsOf, readMinute } from "@/lib/usage/store/redis-read";
import { mergeMinutes, PER_MINUTE } from "@/lib/usage/read/offenders";
import type { RowContext } from "@/lib/usage/read/rows";
import type { Stretch } from "@/lib/usage/read/total-stretches";

// What "most limited" reads from Redis: the minutes the rollup has not reached yet (a minute
// or two while it keeps up), and the subjects, which only Redis' offender sets hold. The
// tenants are read side by side, each its own round trips (on a Cluster each tenant's keys
// share one slot, not one another's).

export interface RecentTally {
  tenantId: string;
  /** "*" on a route's tally */
  keyId: string;
  /** "*" on a key's tally */
  route: string;
  checks: number;
  rejected: number;
}

async function tenantRecent(ctx: RowContext, tenantId: string, stretches: Stretch[]): Promise<RecentTally[]> {
  const tallies = new Map<string, RecentTally>();
  const add = (keyId: string, route: string, outcome: string, count: number): void => {
    const id = `${keyId}\u0000${route}`;
    let t = tallies.get(id);
    if (!t) tallies.set(id, (t = { tenantId, keyId, route, checks: 0, rejected: 0 }));
    if (outcome !== "shadow_rejected") t.checks += count;
    if (outcome === "rejected") t.rejected += count;
  };
  const oldest = minuteOf(ctx.now - ctx.secondsRetentionMs);
  for (const { from, to } of stretches)
    for (let m = Math.max(minuteOf(from), oldest); m * MINUTE_MS < to && m <= minuteOf(ctx.now); m++) {
      const hash = await readMinute(ctx.client, ctx.ns, tenantId, m);
      if (!hash) continue;
      for (const f of fieldsOf(hash)) {
        const exact = m * MINUTE_MS + f.second * 1_000;
        if (exact < from || exact >= to) continue;
        add(f.keyId, "*", f.outcome, f.count);
        add("*", f.route, f.outcome, f.count);
      }
    }
  return [...tallies.values()];
}

/** Per tenant, key and route: the checks and rejections of the stretches not rolled up. */
export async function recentTallies(
  ctx: RowContext,
  tenants: TenantRef[],
  stretches: Stretch[],
): Promise<RecentTally[]> {
  if (stretches.length === 0) return [];
  return (await Promise.all(tenants.map((t) => tenantRecent(ctx, t.id, stretches)))).flat();
}

export interface SubjectTally {
  tenant: string;
  subject: string;
  rejected: number;
}

/** Each tenant's `top` most rejected subjects in [from, to) from the per-minute offender sets. */
export async function recentSubjects(
  ctx: RowContext,
  tenants: TenantRef[],
  from: number,
  to: number,
  top: number,
): Promise<SubjectTally[]> {
  const per = await Promise.all(
    tenants.map(async (t) =>
      [...(await mergeMinutes(ctx, (m) => offendersKey(ctx.ns, t.id, m), PER_MINUTE, from, to)).entries()]
        .filter(([member]) => member.startsWith("s:"))
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, top)
        .map(([member, rejected]) => ({ tenant: t.slug, subject: member.slice(2), rejected })),
    ),
  );
  return per.flat();
}
