"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { UsagePoint } from "@/lib/usage/types";
import { COLORS } from "@/components/charts/format";
import { CHART_MARGIN, COUNT_Y_AXIS, countTooltipProps, timeAxisProps } from "@/components/charts/time-axis";
import { useTimeZone } from "@/components/charts/time-zone-context";

// The frame of the usage page's small bar charts (shadow rejections, leases): counts per
// bucket of one or more usage fields side by side, on the reader's time axis, whole numbers.

export interface TimeBar {
  key: keyof UsagePoint & keyof typeof COLORS;
  /** the legend's name */
  name: string;
  /** the tooltip's name, when it differs */
  tooltip?: string;
}

export function TimeBarChart({
  points,
  stepMs,
  bars,
  height,
  testId,
}: {
  points: UsagePoint[];
  stepMs: number;
  bars: readonly TimeBar[];
  height: number;
  testId: string;
}) {
  const zone = useTimeZone();
  const tooltipName = new Map(bars.map((b) => [b.name, b.tooltip ?? b.name]));
  return (
    <div data-testid={testId} style={{ width: "100%", height }}>
      <ResponsiveContainer>
        <BarChart data={points} margin={CHART_MARGIN}>
          <CartesianGrid stroke={COLORS.grid} strokeDasharray="3 3" />
          <XAxis {...timeAxisProps(stepMs, zone)} padding={{ left: 6, right: 6 }} />
          <YAxis {...COUNT_Y_AXIS} />
          <Tooltip {...countTooltipProps(stepMs, zone, (name) => tooltipName.get(name) ?? name)} />
          {bars.length > 1 && <Legend />}
          {bars.map(({ key, name }) => (
            <Bar key={key} dataKey={key} name={name} fill={COLORS[key]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
