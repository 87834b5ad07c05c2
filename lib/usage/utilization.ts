import "server-only";
import type { Principal } from "@/lib/auth/principal";
import type { CompiledLimit, CompiledTenant, LimitSet, Snapshot } from "@/lib/config/compile";
import { latestPublished } from "@/lib/data/config-change";
import { rowContext } from "@/lib/usage/context";
import { readRows, type RowContext, type UsageRow } from "@/lib/data/usage/rows";
import { keyNames, usageTenant } from "@/lib/data/usage/scope";
import type { LimitUtilization } from "@/lib/usage/types";

// How close the tenant's limits are to their ceiling right now: for every enforce limit with
// a window up to an hour, the admitted checks observed in its trailing window (from the
// per-second data, no counter reads) against its limit. `by: key` limits report their
// busiest key; `by: subject` limits cannot be seen per subject here and are left out.

const MAX_WINDOW_MS = 3_600_000;

interface Candidate {
  limit: CompiledLimit;
  /** key ids it applies to, or null for the whole tenant */
  keyIds: string[] | null;
}

function limitsOf(set: LimitSet): CompiledLimit[] {
  return [...set.unrouted, ...Object.values(set.routed).flat()];
}

function candidates(tenant: CompiledTenant): Candidate[] {
  const out: Candidate[] = limitsOf(tenant.limits).map((limit) => ({ limit, keyIds: null }));
  const defaultKeys = Object.values(tenant.keys).filter((k) => k.limits === null).map((k) => k.id);
  for (const limit of limitsOf(tenant.keyDefault)) if (limit.by === "key") out.push({ limit, keyIds: defaultKeys });
  for (const key of Object.values(tenant.keys)) {
    for (const limit of key.limits ? limitsOf(key.limits) : []) if (limit.by === "key") out.push({ limit, keyIds: [key.id] });
  }
  return out.filter((c) => c.limit.by !== "subject" && c.limit.rule.mode === "enforce" && c.limit.rule.windowMs <= MAX_WINDOW_MS);
}

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

/** A drill-down: only limits that apply to this key and route, measured on its traffic. */
export interface UtilizationFilter {
  keyId?: string;
  route?: string;
}

function applies(c: Candidate, filter: UtilizationFilter): boolean {
  if (filter.keyId !== undefined && c.keyIds !== null && !c.keyIds.includes(filter.keyId)) return false;
  return filter.route === undefined || c.limit.route === null || c.limit.route === filter.route;
}

export async function hottestLimits(
  principal: Principal,
  tenantSlug: string,
  top = 6,
  ctx: RowContext = rowContext(),
  filter: UtilizationFilter = {},
): Promise<LimitUtilization[]> {
  const tenant = await usageTenant(principal, tenantSlug);
  const published = await latestPublished();
  const snapshot = (published?.snapshot as { snapshot?: Snapshot } | null)?.snapshot;
  const compiled = snapshot?.tenants[tenant.slug];
  if (!compiled) return [];
  const list = candidates(compiled).filter((c) => applies(c, filter));
  const longest = Math.max(0, ...list.map((c) => c.limit.rule.windowMs));
  if (list.length === 0) return [];
  const rows = (await readRows(tenant.id, ctx.now - longest, ctx.now + 1, "seconds", ctx)).filter(
    (r) => (filter.keyId === undefined || r.keyId === filter.keyId) && (filter.route === undefined || r.route === filter.route),
  );
  const names = await keyNames(tenant.id);
  const seen = new Set<string>();
  return list
    .map((c): LimitUtilization => {
      const { scope, used } = measure(c, rows, ctx.now, names);
      const { limit: limitValue, windowMs } = c.limit.rule;
      return {
        limit: c.limit.name, by: c.limit.by, scope, limitValue, windowMs, used,
        remaining: Math.max(0, limitValue - used), utilization: used / limitValue,
      };
    })
    .filter((u) => !seen.has(`${u.limit}|${u.scope}`) && seen.add(`${u.limit}|${u.scope}`))
    .sort((a, b) => b.utilization - a.utilization)
    .slice(0, top);
}
