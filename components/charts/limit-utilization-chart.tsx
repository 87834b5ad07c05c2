"use client";

import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { LimitLine } from "@/lib/usage/read/dashboard-types";
import type { UsagePoint } from "@/lib/usage/types";
import { COLORS, formatPercent } from "@/components/charts/format";
import { CHART_MARGIN, timeAxisProps, timeLabel } from "@/components/charts/time-axis";
import { useTimeZone } from "@/components/charts/time-zone-context";

// Utilization per limit over time: the admitted checks of each bucket over the limit's
// sustained rate for a bucket. 100 % is the limit; above it, bursts the limit's burst
// allowance (or window) absorbed.

const PALETTE = ["#2463eb", "#b7791f", "#6b46c1", "#2f855a"];

export function utilizationSeries(points: readonly UsagePoint[], lines: readonly LimitLine[]) {
  return points.map((p) => {
    const row: Record<string, number | null> = { t: p.t };
    const decided = p.allowed + p.rejected + p.degraded;
    for (const l of lines) row[l.limit] = decided === 0 ? null : p.allowed / l.perStep;
    return row;
  });
}

export function LimitUtilizationChart({
  points,
  lines,
  stepMs,
}: {
  points: UsagePoint[];
  lines: LimitLine[];
  stepMs: number;
}) {
  const zone = useTimeZone();
  // sparse traffic (a few busy buckets between gaps) draws no line segments: show points
  const sparse = points.filter((p) => p.allowed + p.rejected + p.degraded > 0).length < 30;
  return (
    <div data-testid="limit-utilization-chart" style={{ width: "100%", height: 200 }}>
      <ResponsiveContainer>
        <LineChart data={utilizationSeries(points, lines)} margin={CHART_MARGIN}>
          <CartesianGrid stroke={COLORS.grid} strokeDasharray="3 3" />
          <XAxis {...timeAxisProps(stepMs, zone)} />
          <YAxis tickFormatter={formatPercent} width={56} />
          <Tooltip
            labelFormatter={timeLabel(stepMs, zone)}
            formatter={(value) => formatPercent(Number(value))}
          />
          <Legend />
          <ReferenceLine y={1} stroke={COLORS.rejected} strokeDasharray="4 4" />
          {lines.map((l, i) => (
            <Line
              key={l.limit}
              type="monotone"
              dataKey={l.limit}
              name={l.limit}
              stroke={PALETTE[i % PALETTE.length]}
              dot={sparse ? { r: 3 } : false}
              connectNulls={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
