import "server-only";
import type { Principal } from "@/lib/auth/principal";
import { rowContext } from "@/lib/usage/context";
import type { UsageQuery } from "@/lib/usage/query-input";
import { readRows, sourceFor, type RowContext, type UsageRow } from "@/lib/data/usage/rows";
import { keyIdByName, keyNames, usageTenant } from "@/lib/data/usage/scope";
import { addCounts, ZERO_COUNTS, type BreakdownRow, type UsagePoint, type UsageSeries } from "@/lib/usage/types";

// Usage queries for the admin API and the dashboard. Each takes the acting principal and
// checks the tenant itself (NotFoundError for tenants it may not see).

export interface ScopedRows {
  rows: UsageRow[];
  keyNames: Map<string, string>;
}

/** Rows of one tenant in the query's range, filtered to its key and route. */
export async function scopedRows(principal: Principal, query: UsageQuery, ctx: RowContext = rowContext()) {
  const tenant = await usageTenant(principal, query.tenant);
  const keyId = query.key === undefined ? undefined : await keyIdByName(tenant, query.key);
  const all = await readRows(tenant.id, query.from, query.to, sourceFor(query.stepMs), ctx);
  const rows = all.filter(
    (r) => (keyId === undefined || r.keyId === keyId) && (query.route === undefined || r.route === query.route),
  );
  return { tenant, rows, names: await keyNames(tenant.id) };
}

export function toSeries(rows: readonly UsageRow[], from: number, to: number, stepMs: number): UsagePoint[] {
  const start = Math.floor(from / stepMs) * stepMs;
  const points: UsagePoint[] = [];
  for (let t = start; t < to; t += stepMs) points.push({ t, ...ZERO_COUNTS });
  for (const row of rows) {
    const point = points[Math.floor((row.t - start) / stepMs)];
    if (point) addCounts(point, row);
  }
  return points;
}

export async function usageSeries(principal: Principal, query: UsageQuery, ctx?: RowContext): Promise<UsageSeries> {
  const { tenant, rows } = await scopedRows(principal, query, ctx);
  return {
    tenant: tenant.slug,
    key: query.key ?? null,
    route: query.route ?? null,
    from: query.from,
    to: query.to,
    stepMs: query.stepMs,
    source: sourceFor(query.stepMs),
    points: toSeries(rows, query.from, query.to, query.stepMs),
  };
}

const total = (r: BreakdownRow) => r.allowed + r.rejected + r.shadowRejected + r.degraded;

/** Totals by key or by route, the top N by traffic and the rest as one "(other)" row. */
export function breakdown(
  rows: readonly UsageRow[],
  by: "key" | "route",
  names: ReadonlyMap<string, string>,
  top = 8,
): BreakdownRow[] {
  const groups = new Map<string, BreakdownRow>();
  for (const row of rows) {
    const id = by === "key" ? row.keyId : row.route;
    let group = groups.get(id);
    if (!group) {
      const name = id === "" ? (by === "key" ? "(no key)" : "(no route)") : by === "key" ? (names.get(id) ?? id) : id;
      groups.set(id, (group = { name, id, ...ZERO_COUNTS }));
    }
    addCounts(group, row);
  }
  const sorted = [...groups.values()].sort((a, b) => total(b) - total(a) || a.name.localeCompare(b.name));
  if (sorted.length <= top) return sorted;
  const rest: BreakdownRow = { name: "(other)", id: null, ...ZERO_COUNTS };
  for (const row of sorted.slice(top)) addCounts(rest, row);
  return [...sorted.slice(0, top), rest];
}

export async function usageBreakdown(
  principal: Principal,
  query: UsageQuery,
  by: "key" | "route",
  top = 8,
  ctx?: RowContext,
): Promise<BreakdownRow[]> {
  const { rows, names } = await scopedRows(principal, query, ctx);
  return breakdown(rows, by, names, top);
}
