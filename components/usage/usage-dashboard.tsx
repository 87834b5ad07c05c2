"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import type { UsageDashboardData } from "@/lib/usage/read/dashboard-types";
import type { BreakdownRow } from "@/lib/usage/types";
import { BreakdownChart } from "@/components/charts/breakdown-chart";
import { RejectionRateChart } from "@/components/charts/rejection-rate-chart";
import { ShadowPanel } from "@/components/usage/shadow-panel";
import { LeasePanel } from "@/components/usage/lease-panel";
import { TrafficChart } from "@/components/charts/traffic-chart";
import { UtilizationChart } from "@/components/charts/utilization-chart";
import { LimitUtilizationChart } from "@/components/charts/limit-utilization-chart";
import { formatCount, formatPercent } from "@/components/charts/format";
import { BreakdownTable } from "@/components/usage/breakdown-table";
import { OffendersTable } from "@/components/usage/offenders-table";
import { RangePicker } from "@/components/usage/range-picker";
import { DegradedBanner } from "@/components/usage/degraded-banner";
import { RANGES } from "@/lib/usage/ranges";
import { liveQuery, usageHref, type UsageView } from "@/components/usage/usage-hrefs";
import { useLiveUsage } from "@/components/usage/use-live-usage";
import { CustomRangeForm } from "@/components/usage/custom-range-form";
import { formatTime } from "@/components/charts/format";
import { useTimeZone } from "@/components/charts/time-zone-context";

// The usage page body: server-rendered first data, then live every 2 s. Drill-down goes
// overview -> tenant -> key -> route through links, so every view has its own URL.

export function UsageDashboard({
  initial,
  canAct = false,
}: {
  initial: UsageDashboardData;
  /** an operator or tenant admin: the degraded banner says where to look (degraded-banner.tsx) */
  canAct?: boolean;
}) {
  const view: UsageView = {
    tenant: initial.tenant,
    key: initial.key,
    route: initial.route,
    range: initial.range,
    window: initial.window,
    compare: initial.previous !== null,
  };
  const router = useRouter();
  const zone = useTimeZone();
  const { data, error } = useLiveUsage(initial, liveQuery(view));
  const totals = data.series.reduce(
    (s, p) => ({
      allowed: s.allowed + p.allowed,
      rejected: s.rejected + p.rejected,
      shadow: s.shadow + p.shadowRejected,
      degraded: s.degraded + p.degraded,
    }),
    { allowed: 0, rejected: 0, shadow: 0, degraded: 0 },
  );
  const decided = totals.allowed + totals.rejected + totals.degraded;
  const drill = (row: BreakdownRow): string | null => {
    if (row.id === null || row.id === "") return null;
    if (data.breakdown.by === "tenant") return usageHref({ ...view, tenant: row.id, key: null, route: null });
    if (data.breakdown.by === "key") return usageHref({ ...view, key: row.name, route: null });
    return usageHref({ ...view, route: row.id });
  };
  return (
    <div data-testid="usage-dashboard" style={{ display: "grid", gap: 16 }}>
      <RangePicker
        current={view.range}
        hrefFor={(range) => usageHref({ ...view, range, window: null })}
        customStepMs={view.window ? data.stepMs : undefined}
      />
      <CustomRangeForm
        window={view.window ?? null}
        from={data.from}
        to={Math.min(data.to, data.generatedAt)}
        hrefFor={(window) => usageHref({ ...view, window })}
        resetHref={usageHref({ ...view, window: null })}
      />
      {view.window ? (
        <p data-testid="custom-range-label">
          Showing {formatTime(view.window.from, 300_000, zone)} to {formatTime(view.window.to, 300_000, zone)}{" "}
          {zone}
        </p>
      ) : null}
      <DegradedBanner
        degraded={totals.degraded}
        where={view.window ? "in the selected range" : `in the last ${RANGES[view.range].label}`}
        minutes={(data.to - data.from) / 60_000}
        full={canAct}
      />
      <p className="muted" data-testid="live-status" aria-live="polite">
        {error ? (
          <span className="error" role="alert">
            Live updates paused: {error}
          </span>
        ) : (
          "Live"
        )}
        {" · updated "}
        <time data-testid="live-updated" dateTime={new Date(data.generatedAt).toISOString()}>
          {formatTime(data.generatedAt, 1_000, zone)} {zone}
        </time>
        {` · ${formatCount(decided)} checks, ${decided ? formatPercent(totals.rejected / decided) : "0%"} rejected, ${formatCount(totals.degraded)} degraded, ${formatCount(totals.shadow)} shadow`}
      </p>
      {decided + totals.shadow === 0 ? (
        <div className="panel" data-testid="usage-empty">
          <p>
            No checks in this range yet. Traffic through <code>POST /api/check</code> appears here within
            seconds (try <code>npm run demo:traffic</code>).
          </p>
        </div>
      ) : null}
      <section className="panel">
        <h2>Allowed vs rejected</h2>
        <TrafficChart
          points={data.series}
          stepMs={data.stepMs}
          now={data.generatedAt}
          limits={data.limitLines}
          dataStartsAt={data.dataStartsAt}
          onZoom={(from, to) => router.push(usageHref({ ...view, window: { from, to } }))}
          previous={data.previous?.checks ?? null}
        />
        <p className="muted" data-testid="compare-previous">
          <Link href={usageHref({ ...view, compare: !view.compare })} data-testid="compare-toggle">
            {view.compare ? "Hide the previous period" : "Compare with the previous period"}
          </Link>
          {data.previous ? ` · ${comparison(decided, totals.rejected, data.previous.totals)}` : null}
        </p>
      </section>
      {data.limitLines.length > 0 ? (
        <section className="panel">
          <h2>Utilization per limit</h2>
          <p className="muted">
            Admitted checks of each bucket against each limit&apos;s sustained rate (100 % is the limit).
          </p>
          <LimitUtilizationChart points={data.series} lines={data.limitLines} stepMs={data.stepMs} />
        </section>
      ) : null}
      <section className="panel">
        <h2>Rejection rate</h2>
        <RejectionRateChart points={data.series} stepMs={data.stepMs} now={data.generatedAt} />
      </section>
      <ShadowPanel points={data.series} stepMs={data.stepMs} shadowLimits={data.shadowLimits} />
      {data.leaseChart ? <LeasePanel points={data.series} stepMs={data.stepMs} /> : null}
      <section className="panel">
        <h2>By {data.breakdown.by}</h2>
        <BreakdownChart rows={data.breakdown.rows} testId={`breakdown-${data.breakdown.by}`} />
        <BreakdownTable rows={data.breakdown.rows} label={data.breakdown.by} hrefFor={drill} />
      </section>
      {data.byRoute.length > 0 ? (
        <section className="panel">
          <h2>By route</h2>
          <BreakdownChart rows={data.byRoute} testId="breakdown-route-all" />
          <BreakdownTable
            rows={data.byRoute}
            label="route"
            hrefFor={(row) => (row.id ? usageHref({ ...view, route: row.id }) : null)}
          />
        </section>
      ) : null}
      {data.tenant ? (
        <section className="panel">
          <h2>Hottest limits: now</h2>
          <p className="muted" data-testid="hottest-note">
            A current snapshot from the live counters in Redis, as the Limits tab reads them (a dry run:
            nothing consumed): each limit&apos;s use of its current window or bucket, whatever the range above
            {view.key || view.route ? "; only limits that apply to this key and route" : ""}. The charts above
            count recorded usage.
          </p>
          {data.hottestUnavailable ? (
            <p className="muted" data-testid="hottest-unavailable">
              Redis did not answer: the counters could not be read right now.
            </p>
          ) : data.hottest.length ? (
            <UtilizationChart limits={data.hottest} />
          ) : (
            <p className="muted">No limits with traffic to show.</p>
          )}
        </section>
      ) : null}
      {data.tenant ? (
        <section className="panel">
          <h2>Top offenders</h2>
          <p className="muted" data-testid="offenders-note">
            Most rejected in the last hour at most
            {data.offendersOf === "filter"
              ? `: only rejections ${[view.key ? `of key ${view.key}` : "", view.route ? `on route ${view.route}` : ""].filter(Boolean).join(" ")}.`
              : ": keys and subjects of the whole tenant."}
          </p>
          <OffendersTable offenders={data.offenders} />
        </section>
      ) : null}
      {data.tenant ? (
        <Link href={usageHref({ ...view, tenant: null, key: null, route: null })}>← All tenants</Link>
      ) : null}
    </div>
  );
}

/** "+12% ..." or "new": the change from `before` to `now`, for people. */
function change(now: number, before: number): string {
  if (before === 0) return now === 0 ? "no change" : "new";
  const ratio = (now - before) / before;
  return `${ratio >= 0 ? "+" : "−"}${formatPercent(Math.abs(ratio))}`;
}

/** The previous period's totals beside this one's, with the change of each. */
function comparison(checks: number, rejected: number, before: { checks: number; rejected: number }): string {
  return (
    `previous period: ${formatCount(before.checks)} checks (now ${change(checks, before.checks)}), ` +
    `${formatCount(before.rejected)} rejected (now ${change(rejected, before.rejected)})`
  );
}
