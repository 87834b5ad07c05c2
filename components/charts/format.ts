// Axis and tooltip formatting shared by the usage charts (isomorphic, no React).

/** The zone every chart and range label is drawn in: UTC, like every date of the console. */
export const CHART_TIME_ZONE = "UTC";

/**
 * A bucket's time on an axis or in a tooltip, in CHART_TIME_ZONE, 24-hour: "14:05",
 * "14:05:10" below a minute's step, "Jan 31, 14:05" from 5 min steps up (24 h and longer
 * ranges cross midnight: the date says which day). A fixed locale, so the server's text
 * and the browser's agree.
 */
export function formatTime(ms: number, stepMs: number): string {
  const d = new Date(ms);
  const zone = { timeZone: CHART_TIME_ZONE, hourCycle: "h23" } as const;
  if (stepMs >= 300_000) {
    return d.toLocaleString("en-US", {
      ...zone,
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
    });
  }
  return d.toLocaleTimeString("en-US", {
    ...zone,
    hour: "2-digit",
    minute: "2-digit",
    ...(stepMs < 60_000 ? { second: "2-digit" } : {}),
  });
}

export function formatCount(value: number): string {
  if (value >= 1_000_000) return `${(value / 1_000_000).toFixed(1)}M`;
  if (value >= 10_000) return `${Math.round(value / 1_000)}k`;
  if (value >= 1_000) return `${(value / 1_000).toFixed(1)}k`;
  return String(Math.round(value));
}

export function formatPercent(ratio: number): string {
  return `${(ratio * 100).toFixed(ratio < 0.1 ? 1 : 0)}%`;
}

/** "per 5 s", "per 5 min", "per 1 h": the unit of a count per bucket. */
export function stepLabel(stepMs: number): string {
  if (stepMs < 60_000) return `per ${stepMs / 1_000} s`;
  if (stepMs < 3_600_000) return `per ${stepMs / 60_000} min`;
  return `per ${stepMs / 3_600_000} h`;
}

export const COLORS = {
  allowed: "#2f855a",
  rejected: "#c53030",
  shadowRejected: "#b7791f",
  degraded: "#6b46c1",
  rate: "#c53030",
  /** follows the theme (app/globals.css sets --chart-grid for light and dark) */
  grid: "var(--chart-grid)",
} as const;
