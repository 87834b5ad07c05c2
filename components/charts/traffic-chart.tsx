"use client";

import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { UsagePoint } from "@/lib/usage/types";
import { COLORS, formatCount, stepLabel } from "@/components/charts/format";
import { CHART_MARGIN, timeAxisProps, timeLabel } from "@/components/charts/time-axis";

// Allowed vs rejected (and degraded) checks over time, stacked. Animation is off: a live
// refresh every 2 s redraws in place instead of replaying an entry animation (no flicker).

// Stacked bottom to top, in this order.
const SERIES = [
  { dataKey: "allowed", name: "Allowed", color: COLORS.allowed, opacity: 0.35 },
  { dataKey: "rejected", name: "Rejected", color: COLORS.rejected, opacity: 0.45 },
  { dataKey: "degraded", name: "Degraded", color: COLORS.degraded, opacity: 0.3 },
] as const;

export interface TrafficChartProps {
  points: UsagePoint[];
  stepMs: number;
}

export function TrafficChart({ points, stepMs }: TrafficChartProps) {
  return (
    <div data-testid="traffic-chart" style={{ width: "100%", height: 260 }}>
      <ResponsiveContainer>
        <AreaChart data={points} margin={CHART_MARGIN}>
          <CartesianGrid stroke={COLORS.grid} strokeDasharray="3 3" />
          <XAxis {...timeAxisProps(stepMs)} />
          <YAxis
            tickFormatter={formatCount}
            width={56}
            label={{
              value: `checks ${stepLabel(stepMs)}`,
              angle: -90,
              position: "insideLeft",
              offset: 0,
              style: { fontSize: 11 },
            }}
          />
          <Tooltip labelFormatter={timeLabel(stepMs)} formatter={(value) => formatCount(Number(value))} />
          <Legend />
          {SERIES.map((series) => (
            <Area
              key={series.dataKey}
              type="monotone"
              dataKey={series.dataKey}
              name={series.name}
              stackId="1"
              stroke={series.color}
              fill={series.color}
              fillOpacity={series.opacity}
              isAnimationActive={false}
            />
          ))}
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
