"use client";

import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { UsagePoint } from "@/lib/usage/types";
import { COLORS, formatPercent } from "@/components/charts/format";
import { CHART_MARGIN, timeAxisProps, timeLabel } from "@/components/charts/time-axis";

// Share of checks rejected per bucket; buckets without traffic are gaps, not 0 %.

export function RejectionRateChart({ points, stepMs }: { points: UsagePoint[]; stepMs: number }) {
  const data = points.map((p) => {
    const decided = p.allowed + p.rejected + p.degraded;
    return { t: p.t, rate: decided === 0 ? null : p.rejected / decided };
  });
  return (
    <div data-testid="rejection-rate-chart" style={{ width: "100%", height: 180 }}>
      <ResponsiveContainer>
        <LineChart data={data} margin={CHART_MARGIN}>
          <CartesianGrid stroke={COLORS.grid} strokeDasharray="3 3" />
          <XAxis {...timeAxisProps(stepMs)} />
          <YAxis domain={[0, 1]} tickFormatter={formatPercent} width={56} />
          <Tooltip
            labelFormatter={timeLabel(stepMs)}
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
