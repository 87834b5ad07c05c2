import "server-only";
import type { Principal } from "@/lib/auth/principal";
import { rowContext } from "@/lib/usage/context";
import type { UsageDashboardData } from "@/lib/usage/dashboard-types";
import { topOffenders } from "@/lib/usage/offenders";
import { breakdown, toSeries } from "@/lib/usage/query";
import { RANGES, type RangeId } from "@/lib/usage/ranges";
import { readRows, sourceFor, type UsageRow } from "@/lib/data/usage/rows";
import { keyIdByName, keyNames, usageTenant, visibleTenants } from "@/lib/data/usage/scope";
import { hottestLimits } from "@/lib/usage/utilization";

// One read per refresh for the usage page: rows of the range once, then the series and the
// breakdowns from them. Scoped like every usage query (NotFoundError for hidden tenants).

export interface DashboardRequest {
  tenant?: string;
  key?: string;
  route?: string;
  range: RangeId;
}

function empty(request: DashboardRequest, now: number): UsageDashboardData {
  const { rangeMs, stepMs } = RANGES[request.range];
  return {
    tenant: request.tenant ?? null, key: request.key ?? null, route: request.route ?? null,
    range: request.range, stepMs, source: sourceFor(stepMs), from: now - rangeMs, to: now,
    series: [], breakdown: { by: "tenant", rows: [] }, byRoute: [], offenders: [], hottest: [], generatedAt: now,
  };
}

async function overview(principal: Principal, data: UsageDashboardData): Promise<UsageDashboardData> {
  const ctx = rowContext(data.to);
  const all: UsageRow[] = [];
  const perTenant: UsageRow[] = [];
  for (const tenant of await visibleTenants(principal)) {
    const rows = await readRows(tenant.id, data.from, data.to, data.source, ctx);
    all.push(...rows);
    // a breakdown by tenant reuses the key breakdown with the slug as the "key"
    perTenant.push(...rows.map((r) => ({ ...r, keyId: tenant.slug })));
  }
  const slugs = new Map(perTenant.map((r) => [r.keyId, r.keyId]));
  return {
    ...data,
    series: toSeries(all, data.from, data.to, data.stepMs),
    breakdown: { by: "tenant", rows: breakdown(perTenant, "key", slugs) },
  };
}

export async function dashboardData(principal: Principal, request: DashboardRequest): Promise<UsageDashboardData> {
  const now = Math.floor(Date.now() / 1_000) * 1_000;
  const data = empty(request, now);
  // the window ends at the next step boundary, so the newest (partial) bucket is drawn too
  data.to = Math.ceil((now + 1) / data.stepMs) * data.stepMs;
  data.from = data.to - RANGES[request.range].rangeMs;
  if (request.tenant === undefined) return overview(principal, data);
  const tenant = await usageTenant(principal, request.tenant);
  const keyId = request.key === undefined ? undefined : await keyIdByName(tenant, request.key);
  const ctx = rowContext(now);
  const rows = (await readRows(tenant.id, data.from, data.to, data.source, ctx)).filter(
    (r) => (keyId === undefined || r.keyId === keyId) && (request.route === undefined || r.route === request.route),
  );
  const names = await keyNames(tenant.id);
  const [offenders, hottest] = await Promise.all([
    topOffenders(principal, tenant.slug, Math.max(data.from, now - 3_600_000), now + 1, 10, ctx),
    hottestLimits(principal, tenant.slug, 6, ctx),
  ]);
  return {
    ...data,
    series: toSeries(rows, data.from, data.to, data.stepMs),
    breakdown: keyId === undefined ? { by: "key", rows: breakdown(rows, "key", names) } : { by: "route", rows: breakdown(rows, "route", names) },
    byRoute: keyId === undefined ? breakdown(rows, "route", names) : [],
    offenders,
    hottest,
  };
}
