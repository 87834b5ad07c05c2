import { formatTime } from "@/components/charts/format";

// What every usage-over-time chart shares: the margin, a time x-axis over the series' own
// span, and the tooltip's time label at the bucket's resolution.

export const CHART_MARGIN = { top: 8, right: 16, bottom: 0, left: 8 } as const;

export function timeAxisProps(stepMs: number) {
  return {
    dataKey: "t",
    type: "number" as const,
    scale: "time" as const,
    domain: ["dataMin", "dataMax"] as [string, string],
    tickFormatter: (t: number) => formatTime(t, stepMs),
    minTickGap: 40,
  };
}

export function timeLabel(stepMs: number): (t: unknown) => string {
  return (t) => formatTime(Number(t), stepMs);
}
