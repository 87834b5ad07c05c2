import "server-only";
import type { Principal } from "@/lib/shared/principal";
import type { UsageDashboardData } from "@/lib/usage/read/dashboard-types";
import type { LimitUtilization } from "@/lib/usage/types";
import { liveUtilization, type LiveCounter } from "@/lib/control/counters/live-utilization";

// "Hottest limits: now" of the usage page, from the live counters in Redis: the same dry-run
// read as the Limits tab's Now column (live-utilization.ts), so both say the same number.
// It was built from per-second usage, which undercounted tenant- and key-wide limits on a
// narrowed view (only that route's rows) and showed "120% · 6 of 5" (usage is not the
// counter). Rates stay with usage: the charts above it.

export interface HottestFilter {
  key?: string | null;
  route?: string | null;
}

function applies(c: LiveCounter, filter: HottestFilter): boolean {
  if (filter.key && c.owner !== "tenant" && c.owner !== filter.key) return false;
  return !filter.route || c.route === null || c.route === filter.route;
}

function scopeOf(c: LiveCounter): string {
  const parts = [c.owner === "tenant" ? "tenant" : `key ${c.owner}`];
  if (c.route) parts.push(`route ${c.route}`);
  return parts.join(" · ");
}

/** The `top` fullest counters that apply to the view; null when Redis cannot be read. */
export async function hottestNow(
  principal: Principal,
  slug: string,
  filter: HottestFilter = {},
  top = 6,
): Promise<LimitUtilization[] | null> {
  const live = await liveUtilization(principal, slug);
  if (!live) return null;
  const seen = new Set<string>();
  return (
    live.counters
      // a disabled limit is not evaluated and a blocked one (0) holds no counter
      .filter((c) => c.capacity > 0 && applies(c, filter))
      .map((c): LimitUtilization => ({
        limit: c.name,
        by: c.by,
        scope: scopeOf(c),
        limitValue: c.capacity,
        windowMs: c.windowMs,
        used: c.used,
        remaining: Math.max(0, c.capacity - c.used),
        utilization: Math.min(1, c.used / c.capacity),
      }))
      .sort((a, b) => b.utilization - a.utilization)
      // a per-key limit once: its fullest key (the others are on the Limits tab)
      .filter((u) => {
        const id = `${u.limit}|${u.by === "key" ? "key" : u.scope}`;
        return !seen.has(id) && seen.add(id);
      })
      .slice(0, top)
  );
}

/** The usage page's data with Hottest limits read from the counters (a tenant's page only). */
export async function withHottestNow(
  principal: Principal,
  data: UsageDashboardData,
): Promise<UsageDashboardData> {
  if (data.tenant === null) return data;
  const hottest = await hottestNow(principal, data.tenant, { key: data.key, route: data.route }).catch(
    () => null,
  );
  return { ...data, hottest: hottest ?? [], hottestUnavailable: hottest === null };
}
