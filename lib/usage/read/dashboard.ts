import "server-only";
import type { Principal } from "@/lib/shared/principal";
import type { RowContext } from "@/lib/usage/read/rows";
import { sourceFor } from "@/lib/usage/read/rows";
import { rowContext } from "@/lib/usage/read/context";
import type { UsageDashboardData } from "@/lib/usage/read/dashboard-types";
import { topOffenders } from "@/lib/usage/read/offenders";
import { breakdown, toSeries } from "@/lib/usage/read/query";
import { RANGES, type RangeId } from "@/lib/usage/ranges";
import { readCompact } from "@/lib/usage/read/scoped-reader";
import { measurableLimits, shadowLimitCount } from "@/lib/control/data/usage/limit-candidates";
import { limitLinesOf } from "@/lib/usage/read/limit-lines";
import { usageDataStart } from "@/lib/control/data/usage/data-start";
import { dataStartMarker } from "@/lib/usage/read/data-start";
import { stepForWindow, type CustomWindow } from "@/lib/usage/read/custom-window";

// One read per refresh for the usage page: the range summed as it is read into the series
// and the totals per key and per route (the compact reader the admin API uses too), then
// the breakdowns from those totals. NotFoundError for tenants the principal may not see.

export interface DashboardRequest {
  tenant?: string;
  key?: string;
  route?: string;
  range: RangeId;
  /** a custom range (validated by parseCustomWindow); replaces the preset range's span */
  window?: CustomWindow;
}

function presetWindow(range: RangeId, now: number): { from: number; to: number; stepMs: number } {
  const { rangeMs, stepMs } = RANGES[range];
  // the window ends at the next step boundary, so the newest (partial) bucket is drawn too
  const to = Math.ceil((now + 1) / stepMs) * stepMs;
  return { from: to - rangeMs, to, stepMs };
}

export async function dashboardData(
  principal: Principal,
  request: DashboardRequest,
  ctx: RowContext = rowContext(Math.floor(Date.now() / 1_000) * 1_000),
): Promise<UsageDashboardData> {
  const now = ctx.now;
  const { from, to, stepMs } = request.window
    ? { ...request.window, stepMs: stepForWindow(request.window, now - ctx.secondsRetentionMs) }
    : presetWindow(request.range, now);
  const source = sourceFor(stepMs);
  const scope = { tenant: request.tenant, key: request.key, route: request.route, from, to, source };
  const totals = request.tenant === undefined ? "tenants" : "keys-routes";
  const [{ series, byKey, byRoute, names }, start] = await Promise.all([
    readCompact(principal, { ...scope, stepMs, totals }, ctx),
    usageDataStart(principal, request.tenant),
  ]);
  const points = toSeries(series, from, to, stepMs);
  const base = {
    tenant: request.tenant ?? null,
    key: request.key ?? null,
    route: request.route ?? null,
    range: request.range,
    window: request.window ?? null,
    stepMs,
    source,
    from,
    to,
    generatedAt: now,
    series: points,
    dataStartsAt: dataStartMarker(points, from, stepMs, start),
  };
  if (request.tenant === undefined) {
    // a breakdown by tenant reuses the key breakdown with the slug as the "key"
    const perTenant = byKey.map((r) => ({ ...r, keyId: r.tenant }));
    const slugs = new Map(perTenant.map((r) => [r.keyId, r.keyId]));
    return {
      ...base,
      breakdown: { by: "tenant", rows: breakdown(perTenant, "key", slugs) },
      byRoute: [],
      offenders: [],
      offendersOf: "tenant",
      hottest: [],
      hottestUnavailable: false,
      limitLines: [],
      shadowLimits: null,
    };
  }
  const keyId =
    request.key === undefined ? undefined : [...names].find(([, name]) => name === request.key)?.[0];
  const narrowed = request.key !== undefined || request.route !== undefined;
  const [offenders, measurable, shadowLimits] = await Promise.all([
    topOffenders(principal, request.tenant, Math.max(from, now - 3_600_000), Math.min(to, now + 1), 10, ctx, {
      keyId,
      route: request.route,
    }),
    narrowed ? measurableLimits(principal, request.tenant, { keyId, route: request.route }) : null,
    shadowLimitCount(principal, request.tenant),
  ]);
  const lineSources = (measurable?.list ?? []).map(({ limit }) => ({
    name: limit.name,
    limit: limit.rule.limit,
    windowMs: limit.rule.windowMs,
    by: limit.by,
    route: limit.route,
  }));
  return {
    ...base,
    breakdown:
      keyId === undefined
        ? { by: "key", rows: breakdown(byKey, "key", names) }
        : { by: "route", rows: breakdown(byRoute, "route", names) },
    byRoute: keyId === undefined ? breakdown(byRoute, "route", names) : [],
    offenders,
    offendersOf: narrowed ? "filter" : "tenant",
    // filled from the live counters by the caller (withHottestNow): usage is not the counter
    hottest: [],
    hottestUnavailable: false,
    limitLines: limitLinesOf(lineSources, stepMs),
    shadowLimits,
  };
}
