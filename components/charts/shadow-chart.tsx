"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { UsagePoint } from "@/lib/usage/types";
import { COLORS, formatCount, formatTime, stepLabel } from "@/components/charts/format";

// Checks a shadow limit would have rejected (they were allowed): kept apart from real
// rejections so trying a limit in shadow mode never reads as an incident.

export function ShadowChart({ points, stepMs }: { points: UsagePoint[]; stepMs: number }) {
  return (
    <div data-testid="shadow-chart" style={{ width: "100%", height: 160 }}>
      <ResponsiveContainer>
        <BarChart data={points} margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid stroke={COLORS.grid} strokeDasharray="3 3" />
          <XAxis
            dataKey="t"
            type="number"
            scale="time"
            domain={["dataMin", "dataMax"]}
            padding={{ left: 6, right: 6 }}
            tickFormatter={(t: number) => formatTime(t, stepMs)}
            minTickGap={40}
          />
          <YAxis tickFormatter={formatCount} width={56} allowDecimals={false} />
          <Tooltip
            labelFormatter={(t) => formatTime(Number(t), stepMs)}
            formatter={(value) => [`${formatCount(Number(value))} ${stepLabel(stepMs)}`, "Would be rejected"]}
          />
          <Bar
            dataKey="shadowRejected"
            name="Would be rejected (shadow)"
            fill={COLORS.shadowRejected}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
