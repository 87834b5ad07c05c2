"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { UsagePoint } from "@/lib/usage/types";
import { COLORS, formatCount, stepLabel } from "@/components/charts/format";
import { CHART_MARGIN, timeAxisProps, timeLabel } from "@/components/charts/time-axis";
import { useTimeZone } from "@/components/charts/time-zone-context";

// Checks a shadow limit would have rejected (they were allowed): kept apart from real
// rejections so trying a limit in shadow mode never reads as an incident.

export function ShadowChart({ points, stepMs }: { points: UsagePoint[]; stepMs: number }) {
  const zone = useTimeZone();
  return (
    <div data-testid="shadow-chart" style={{ width: "100%", height: 160 }}>
      <ResponsiveContainer>
        <BarChart data={points} margin={CHART_MARGIN}>
          <CartesianGrid stroke={COLORS.grid} strokeDasharray="3 3" />
          <XAxis {...timeAxisProps(stepMs, zone)} padding={{ left: 6, right: 6 }} />
          <YAxis tickFormatter={formatCount} width={56} allowDecimals={false} />
          <Tooltip
            labelFormatter={timeLabel(stepMs, zone)}
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
