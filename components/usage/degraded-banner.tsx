import { formatCount } from "@/components/charts/format";
import { DEGRADED_CAUSES, type DegradedCause } from "@/lib/check/types";
import type { CauseCounts } from "@/lib/usage/types";

// Decisions made without Redis' verdict answer by the fail-open/closed policy, not by the
// limits: say so above everything else when any happened in the range shown. Those who can
// act on it (operators, tenant admins) see why, per cause and per minute, and where the
// metrics are; viewers see a short status.

const CAUSES: Record<DegradedCause, { label: string; why: string }> = {
  redis_timeout: {
    label: "Redis timeout",
    why: "Redis did not answer within the check timeout: check its latency and load",
  },
  connection_lost: {
    label: "connection lost",
    why: "no working connection to Redis: is it up and reachable?",
  },
  breaker_open: {
    label: "circuit open",
    why: "Redis was skipped after failures in a row, until a probe succeeds",
  },
  local_overload: {
    label: "Sluice overloaded",
    why: "this server was too busy to read Redis' reply in time (event-loop delay), not Redis: give the check process more CPU",
  },
  limiter_error: { label: "limiter error", why: "Redis' reply could not be read: see the server log" },
};

export interface DegradedBannerProps {
  degraded: number;
  /** "in the last 15 min", "in the selected range"... */
  where: string;
  /** the range's length, for the rates per minute */
  minutes: number;
  /** operators and tenant admins: the causes, rates and metrics; others a short status */
  full: boolean;
  /** by cause when known (the last minutes only); null: not known for this range */
  causes?: CauseCounts | null;
}

const perMinute = (count: number, minutes: number): string =>
  `${(count / Math.max(1, minutes)).toFixed(1)}/min`;

export function DegradedBanner({ degraded, where, minutes, full, causes = null }: DegradedBannerProps) {
  if (degraded <= 0) return null;
  if (!full) {
    return (
      <div className="banner banner-warn" role="status" data-testid="degraded-banner">
        <strong>{formatCount(degraded)} degraded decisions</strong> {where}: answered without their
        limits&apos; counters. Tenant admins and operators see the cause.
      </div>
    );
  }
  const known = causes ? DEGRADED_CAUSES.filter((cause) => causes[cause] > 0) : [];
  const unknown = causes ? degraded - known.reduce((n, cause) => n + causes[cause], 0) : 0;
  return (
    <div className="banner banner-warn" role="status" data-testid="degraded-banner">
      <strong>{formatCount(degraded)} degraded decisions</strong> {where} ({perMinute(degraded, minutes)}):
      answered by each limit&apos;s fail-open or fail-closed policy instead of its counter.
      {known.length > 0 && (
        <ul data-testid="degraded-causes">
          {known.map((cause) => (
            <li key={cause} data-cause={cause}>
              <strong>{CAUSES[cause].label}</strong>: {formatCount((causes as CauseCounts)[cause])} (
              {perMinute((causes as CauseCounts)[cause], minutes)}), {CAUSES[cause].why}
            </li>
          ))}
          {unknown > 0 && <li>{formatCount(unknown)} without a recorded cause</li>}
        </ul>
      )}{" "}
      Per cause and live: <code>sluice_degraded_decisions_total</code> and{" "}
      <code>sluice_event_loop_delay_seconds</code> in <a href="/api/metrics">/api/metrics</a>.
    </div>
  );
}
