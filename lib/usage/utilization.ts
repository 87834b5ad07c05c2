import "server-only";
import type { Principal } from "@/lib/auth/principal";
import { measurableLimits, type Candidate, type LimitFilter } from "@/lib/usage/limit-candidates";
import { rowContext } from "@/lib/usage/context";
import { readRows, type RowContext, type UsageRow } from "@/lib/data/usage/rows";
import { keyNames } from "@/lib/data/usage/scope";
import type { LimitUtilization } from "@/lib/usage/types";

// How close the tenant's limits are to their ceiling right now: for every enforce limit with
// a window up to an hour, the admitted checks observed in its trailing window (from the
// per-second data, no counter reads) against its limit. `by: key` limits report their
// busiest key; `by: subject` limits cannot be seen per subject here and are left out.

const MAX_WINDOW_MS = 3_600_000;

function measure(c: Candidate, rows: readonly UsageRow[], now: number, names: ReadonlyMap<string, string>) {
  const since = now - c.limit.rule.windowMs;
  const used = new Map<string, number>();
  for (const r of rows) {
    if (r.t < since || (c.limit.route !== null && r.route !== c.limit.route)) continue;
    if (c.keyIds !== null && !c.keyIds.includes(r.keyId)) continue;
    const owner = c.limit.by === "key" ? r.keyId : "";
    used.set(owner, (used.get(owner) ?? 0) + r.allowed);
  }
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
  const rows = (await readRows(tenant.id, ctx.now - longest, ctx.now + 1, "seconds", ctx)).filter(
    (r) =>
      (filter.keyId === undefined || r.keyId === filter.keyId) &&
      (filter.route === undefined || r.route === filter.route),
  );
  const names = await keyNames(tenant.id);
  const seen = new Set<string>();
  return list
    .map((c): LimitUtilization => {
      const { scope, used } = measure(c, rows, ctx.now, names);
      const { limit: limitValue, windowMs } = c.limit.rule;
      return {
        limit: c.limit.name,
        by: c.limit.by,
        scope,
        limitValue,
        windowMs,
        used,
        remaining: Math.max(0, limitValue - used),
        utilization: used / limitValue,
      };
    })
    .filter((u) => !seen.has(`${u.limit}|${u.scope}`) && seen.add(`${u.limit}|${u.scope}`))
    .sort((a, b) => b.utilization - a.utilization)
    .slice(0, top);
}
