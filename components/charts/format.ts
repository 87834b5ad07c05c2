// Axis and tooltip formatting shared by the usage charts (isomorphic, no React).

/** A time on a chart, in the reader's zone (account settings; the axis names it). */
export function formatTime(ms: number, stepMs: number, zone = "UTC"): string {
  const d = new Date(ms);
  if (stepMs >= 300_000) {
    return d.toLocaleString("en-US", {
      timeZone: zone,
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
  }
  return d.toLocaleTimeString("en-US", {
    timeZone: zone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    ...(stepMs < 60_000 ? { second: "2-digit" } : {}),
  });
}

/** What a chart's time axis is titled: the zone its times are in. */
export function axisZoneLabel(zone: string): string {
  return `time (${zone})`;
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
  leasesAcquired: "#2b6cb0",
  leasesReleased: "#2f855a",
  leasesExpired: "#c05621",
  /** follows the theme (app/globals.css sets --chart-grid for light and dark) */
  grid: "var(--chart-grid)",
} as const;
