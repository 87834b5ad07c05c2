import { axisZoneLabel, formatCount, formatTime, stepLabel } from "@/components/charts/format";

// What every usage-over-time chart shares: the margin, a time x-axis over the series' own
// span, and the tooltip's time label at the bucket's resolution.

export const CHART_MARGIN = { top: 8, right: 16, bottom: 0, left: 8 } as const;

/** The x-axis of times in `zone` (the reader's, useTimeZone), titled with the zone. */
export function timeAxisProps(stepMs: number, zone: string) {
  return {
    dataKey: "t",
    type: "number" as const,
    scale: "time" as const,
    domain: ["dataMin", "dataMax"] as [string, string],
    tickFormatter: (t: number) => formatTime(t, stepMs, zone),
    minTickGap: 40,
    height: 44,
    label: { value: axisZoneLabel(zone), position: "insideBottom" as const, offset: 0, fontSize: 11 },
  };
}

export function timeLabel(stepMs: number, zone: string): (t: unknown) => string {
  return (t) => `${formatTime(Number(t), stepMs, zone)} ${zone}`;
}

/**
 * A y-axis title, rotated along the axis and centred on it. recharts anchors an
 * "insideLeft" label at its start, so a rotated title grew upwards from the middle and a
 * long one ran off the top of the chart; "middle" centres it, and the axis is wide enough.
 */
export function yAxisTitle(value: string) {
  return {
    value,
    angle: -90,
    position: "insideLeft" as const,
    textAnchor: "middle" as const,
    offset: 0,
    style: { fontSize: 11 },
    fill: "var(--muted)",
  };
}

/** The y-axis of whole counts per bucket (the bar charts'). */
export const COUNT_Y_AXIS = { tickFormatter: formatCount, width: 56, allowDecimals: false } as const;

/** A tooltip of counts per bucket at `stepMs`, each series named by `nameOf`. */
export function countTooltipProps(stepMs: number, zone: string, nameOf: (name: string) => string) {
  return {
    labelFormatter: timeLabel(stepMs, zone),
    formatter: (value: unknown, name: unknown): [string, string] => [
      `${formatCount(Number(value))} ${stepLabel(stepMs)}`,
      nameOf(String(name)),
    ],
  };
}
