"use client";

import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { UsagePoint } from "@/lib/usage/types";
import { COLORS, formatPercent, formatTime } from "@/components/charts/format";

// Share of checks rejected per bucket; buckets without traffic are gaps, not 0 %.

export function RejectionRateChart({ points, stepMs }: { points: UsagePoint[]; stepMs: number }) {
  const data = points.map((p) => {
    const decided = p.allowed + p.rejected + p.degraded;
    return { t: p.t, rate: decided === 0 ? null : p.rejected / decided };
  });
  return (
    <div data-testid="rejection-rate-chart" style={{ width: "100%", height: 180 }}>
      <ResponsiveContainer>
        <LineChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid stroke={COLORS.grid} strokeDasharray="3 3" />
          <XAxis
            dataKey="t"
            type="number"
            scale="time"
            domain={["dataMin", "dataMax"]}
            tickFormatter={(t: number) => formatTime(t, stepMs)}
            minTickGap={40}
          />
          <YAxis domain={[0, 1]} tickFormatter={formatPercent} width={56} />
          <Tooltip
            labelFormatter={(t) => formatTime(Number(t), stepMs)}
            formatter={(value) => [formatPercent(Number(value)), "Rejected"]}
          />
          <Line
            type="monotone"
            dataKey="rate"
            name="Rejection rate"
            stroke={COLORS.rate}
            dot={false}
            connectNulls={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
