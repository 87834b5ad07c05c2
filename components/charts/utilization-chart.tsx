import "@/components/charts/hot-bars.css";
import type { LimitUtilization } from "@/lib/usage/types";
import { formatPercent } from "@/components/charts/format";
import { formatSpan } from "@/lib/shared/format-span";
import { formatUsedOf } from "@/lib/shared/format-count";

// The hottest limits: share of each limit used in its trailing window (red past 90 %).
// Plain bars, not a chart library: each label sits beside its bar on a wide screen and above
// it on a phone, so at 390 px the bar gets the panel's whole width instead of the ~50 px a
// fixed 260 px axis left it. The figures a tooltip used to hide are written out.

function tone(ratio: number): string {
  if (ratio >= 0.9) return "hot";
  return ratio >= 0.6 ? "warm" : "cool";
}

export function UtilizationChart({ limits }: { limits: LimitUtilization[] }) {
  return (
    <ul className="hot-bars" data-testid="utilization-chart">
      {limits.map((l) => {
        const label = `${l.limit} (${l.scope})`;
        const shown = Math.min(l.utilization, 1);
        return (
          <li key={label} className="hot-bar">
            <span className="hot-label">{label}</span>
            <span
              className="hot-track"
              role="meter"
              aria-label={`${label} used`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(shown * 100)}
            >
              <span className={`hot-fill ${tone(l.utilization)}`} style={{ width: `${shown * 100}%` }} />
            </span>
            <strong className="hot-percent">{formatPercent(l.utilization)}</strong>
            <span className="hot-detail muted">
              {formatUsedOf(l.used, l.limitValue)} · window {formatSpan(l.windowMs)}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
