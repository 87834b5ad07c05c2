import "server-only";
import type { Principal } from "@/lib/shared/principal";
import {
  measurableLimits,
  type Candidate,
  type LimitFilter,
} from "@/lib/control/data/usage/limit-candidates";
import { rowContext } from "@/lib/usage/read/context";
import { ALL_PAIRS, visitRows, type RowContext, type UsageRow } from "@/lib/usage/read/rows";
import { keyNames } from "@/lib/control/data/usage/scope";
import type { LimitUtilization } from "@/lib/usage/types";

// How close the tenant's limits are to their ceiling right now: for every enforce limit with
// a window up to an hour, the admitted checks observed in its trailing window (from the
// per-second data, no counter reads) against its limit. `by: key` limits report their
// busiest key; `by: subject` limits cannot be seen per subject here and are left out.

const MAX_WINDOW_MS = 3_600_000;

/** Admitted checks per owner in each candidate's trailing window, counted as rows are read. */
function tally(list: readonly Candidate[], now: number) {
  const used = list.map(() => new Map<string, number>());
  const visit = (r: UsageRow): void => {
    list.forEach((c, i) => {
      if (r.t < now - c.limit.rule.windowMs || (c.limit.route !== null && r.route !== c.limit.route)) return;
      if (c.keyIds !== null && !c.keyIds.includes(r.keyId)) return;
      const owner = c.limit.by === "key" ? r.keyId : "";
      const counts = used[i] as Map<string, number>;
      counts.set(owner, (counts.get(owner) ?? 0) + r.allowed);
    });
  };
  return { used, visit };
}

/** The busiest owner's count, and where it is. */
function busiest(c: Candidate, used: ReadonlyMap<string, number>, names: ReadonlyMap<string, string>) {
  const [owner, count] = [...used.entries()].sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
  const parts = [c.limit.by === "key" ? `key ${names.get(owner) ?? (owner || "any")}` : "tenant"];
  if (c.limit.route) parts.push(`route ${c.limit.route}`);
  return { scope: parts.join(" · "), used: count };
}

export async function hottestLimits(
  principal: Principal,
  tenantSlug: string,
  top = 6,
  ctx: RowContext = rowContext(),
  filter: LimitFilter = {},
): Promise<LimitUtilization[]> {
  const measurable = await measurableLimits(principal, tenantSlug, filter);
  const { tenant } = measurable;
  const list = measurable.list.filter((c) => c.limit.rule.windowMs <= MAX_WINDOW_MS);
  const longest = Math.max(0, ...list.map((c) => c.limit.rule.windowMs));
  if (list.length === 0) return [];
  // summed as read, a minute at a time: an hour of a busy tenant's seconds is not kept
  const { used, visit } = tally(list, ctx.now);
  const only = { ...ALL_PAIRS, keyId: filter.keyId, route: filter.route };
  await visitRows(tenant.id, ctx.now - longest, ctx.now + 1, "seconds", ctx, 1_000, visit, only);
  const names = await keyNames(tenant.id);
  const seen = new Set<string>();
  return list
    .map((c, i): LimitUtilization => {
      const { scope, used: count } = busiest(c, used[i] ?? new Map<string, number>(), names);
      const { limit: limitValue, windowMs } = c.limit.rule;
      return {
        limit: c.limit.name,
        by: c.limit.by,
        scope,
        limitValue,
        windowMs,
        used: count,
        remaining: Math.max(0, limitValue - count),
        utilization: count / limitValue,
      };
    })
    .filter((u) => !seen.has(`${u.limit}|${u.scope}`) && seen.add(`${u.limit}|${u.scope}`))
    .sort((a, b) => b.utilization - a.utilization)
    .slice(0, top);
}
