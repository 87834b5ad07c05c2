import "server-only";
import type { Principal } from "@/lib/shared/principal";
import type { RowContext } from "@/lib/usage/read/rows";
import { sourceFor } from "@/lib/usage/read/rows";
import { rowContext } from "@/lib/usage/read/context";
import type { UsageDashboardData } from "@/lib/usage/read/dashboard-types";
import { topOffenders } from "@/lib/usage/read/offenders";
import { breakdown, toSeries, withOthers } from "@/lib/usage/read/query";
import { RANGES, type RangeId } from "@/lib/usage/ranges";
import { readCompact } from "@/lib/usage/read/scoped-reader";
import { limitKindCounts, measurableLimits } from "@/lib/control/data/usage/limit-candidates";
import { limitLinesOf } from "@/lib/usage/read/limit-lines";
import { usageDataStart } from "@/lib/control/data/usage/data-start";
import { dataStartMarker } from "@/lib/usage/read/data-start";
import { stepForWindow, type CustomWindow } from "@/lib/usage/read/custom-window";
import { previousAcrossTenants, previousPeriod } from "@/lib/usage/read/previous-period";
import { acrossTenants } from "@/lib/usage/read/across-tenants";
import { countVisibleTenants } from "@/lib/control/data/usage/tenants-usage";

/** Up to this many tenants the index reads each (to the second); beyond, all at once (a minute a step). */
export const ONE_BY_ONE_UP_TO = 50;

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
  /** also read the previous period of the same length (the comparison toggle) */
  compare?: boolean;
}

function presetWindow(range: RangeId, now: number): { from: number; to: number; stepMs: number } {
  const { rangeMs, stepMs } = RANGES[range];
  // the window ends at the next step boundary, so the newest (partial) bucket is drawn too
  const to = Math.ceil((now + 1) / stepMs) * stepMs;
  return { from: to - rangeMs, to, stepMs };
}

/** What the index across tenants leaves empty: those are a tenant's. */
const emptyDetail = {
  byRoute: [],
  offenders: [],
  offendersOf: "tenant",
  hottest: [],
  hottestUnavailable: false,
  limitLines: [],
  shadowLimits: null,
  leaseChart: false,
  dataStartsAt: null,
} satisfies Partial<UsageDashboardData>;

export async function dashboardData(
  principal: Principal,
  request: DashboardRequest,
  ctx: RowContext = rowContext(Math.floor(Date.now() / 1_000) * 1_000),
): Promise<UsageDashboardData> {
  const now = ctx.now;
  const { from, to, stepMs } = request.window
    ? { ...request.window, stepMs: stepForWindow(request.window, now - ctx.secondsRetentionMs) }
    : presetWindow(request.range, now);
  if (request.tenant === undefined && (await countVisibleTenants(principal)) > ONE_BY_ONE_UP_TO) {
    const across = await acrossTenants(principal, from, to, stepMs, ctx);
    const current = { from, to, stepMs: across.stepMs };
    const previous = request.compare ? await previousAcrossTenants(principal, current, ctx) : null;
    const perTenant = across.byTenant.map((r) => ({ ...r, keyId: r.tenant }));
    return {
      ...emptyDetail,
      tenant: null,
      key: null,
      route: null,
      range: request.range,
      window: request.window ?? null,
      stepMs: across.stepMs,
      source: sourceFor(across.stepMs),
      from,
      to,
      generatedAt: now,
      series: toSeries(across.series, from, to, across.stepMs),
      breakdown: {
        by: "tenant",
        rows: withOthers(
          breakdown(perTenant, "key", new Map(perTenant.map((r) => [r.keyId, r.keyId]))),
          across.others,
        ),
      },
      previous,
    };
  }
  const source = sourceFor(stepMs);
  const scope = { tenant: request.tenant, key: request.key, route: request.route, from, to, source };
  const totals = request.tenant === undefined ? "tenants" : "keys-routes";
  const [{ series, byKey, byRoute, names }, previous, start] = await Promise.all([
    readCompact(principal, { ...scope, stepMs, totals }, ctx),
    request.compare
      ? previousPeriod(
          principal,
          { tenant: request.tenant, key: request.key, route: request.route },
          { from, to, stepMs },
          ctx,
        )
      : null,
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
    previous,
    dataStartsAt: dataStartMarker(points, from, stepMs, start),
  };
  if (request.tenant === undefined) {
    // a breakdown by tenant reuses the key breakdown with the slug as the "key"
    const perTenant = byKey.map((r) => ({ ...r, keyId: r.tenant }));
    const slugs = new Map(perTenant.map((r) => [r.keyId, r.keyId]));
    return { ...base, ...emptyDetail, breakdown: { by: "tenant", rows: breakdown(perTenant, "key", slugs) } };
  }
  const keyId =
    request.key === undefined ? undefined : [...names].find(([, name]) => name === request.key)?.[0];
  const narrowed = request.key !== undefined || request.route !== undefined;
  const [offenders, measurable, kinds] = await Promise.all([
    topOffenders(principal, request.tenant, Math.max(from, now - 3_600_000), Math.min(to, now + 1), 10, ctx, {
      keyId,
      route: request.route,
    }),
    narrowed ? measurableLimits(principal, request.tenant, { keyId, route: request.route }) : null,
    limitKindCounts(principal, request.tenant),
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
    shadowLimits: kinds.shadow,
    leaseChart: kinds.concurrency > 0,
  };
}
