"use client";

import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { UsagePoint } from "@/lib/usage/types";
import { COLORS, formatCount, formatTime, stepLabel } from "@/components/charts/format";

// Allowed vs rejected (and degraded) checks over time, stacked. Animation is off: a live
// refresh every 2 s redraws in place instead of replaying an entry animation (no flicker).

export interface TrafficChartProps {
  points: UsagePoint[];
  stepMs: number;
}

export function TrafficChart({ points, stepMs }: TrafficChartProps) {
  return (
    <div data-testid="traffic-chart" style={{ width: "100%", height: 260 }}>
      <ResponsiveContainer>
        <AreaChart data={points} margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid stroke={COLORS.grid} strokeDasharray="3 3" />
          <XAxis
            dataKey="t"
            type="number"
            scale="time"
            domain={["dataMin", "dataMax"]}
            tickFormatter={(t: number) => formatTime(t, stepMs)}
            minTickGap={40}
          />
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
          <Tooltip
            labelFormatter={(t) => formatTime(Number(t), stepMs)}
            formatter={(value) => formatCount(Number(value))}
          />
          <Legend />
          <Area
            type="monotone"
            dataKey="allowed"
            name="Allowed"
            stackId="1"
            stroke={COLORS.allowed}
            fill={COLORS.allowed}
            fillOpacity={0.35}
            isAnimationActive={false}
          />
          <Area
            type="monotone"
            dataKey="rejected"
            name="Rejected"
            stackId="1"
            stroke={COLORS.rejected}
            fill={COLORS.rejected}
            fillOpacity={0.45}
            isAnimationActive={false}
          />
          <Area
            type="monotone"
            dataKey="degraded"
            name="Degraded"
            stackId="1"
            stroke={COLORS.degraded}
            fill={COLORS.degraded}
            fillOpacity={0.3}
            isAnimationActive={false}
          />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
