"use client";

import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { UsagePoint } from "@/lib/usage/types";
import { COLORS, formatPercent } from "@/components/charts/format";
import { fillingBucketStart, isolatedPoints, ratePoints } from "@/components/charts/rate-points";
import { FillingBucket } from "@/components/charts/filling-bucket";
import { CHART_MARGIN, timeAxisProps, timeLabel } from "@/components/charts/time-axis";

// Share of checks rejected per bucket; buckets without traffic are gaps, not 0 %. A bucket
// with no traffic on either side is a line of one point, which draws nothing: those get a dot
// (the 7 d and 30 d views of a tenant with one busy hour were empty without it).

interface DotProps {
  cx?: number;
  cy?: number;
  index?: number;
}

export function RejectionRateChart({
  points,
  stepMs,
  now,
}: {
  points: UsagePoint[];
  stepMs: number;
  now: number;
}) {
  const data = ratePoints(points);
  const isolated = isolatedPoints(data);
  const dot = ({ cx, cy, index }: DotProps) =>
    index !== undefined && isolated.has(index) && cx !== undefined && cy !== undefined ? (
      <circle key={index} cx={cx} cy={cy} r={3} fill={COLORS.rate} data-testid="rate-dot" />
    ) : (
      <g key={index} />
    );
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
          <FillingBucket from={fillingBucketStart(points, stepMs, now)} stepMs={stepMs} />
          <Line
            type="monotone"
            dataKey="rate"
            name="Rejection rate"
            stroke={COLORS.rate}
            dot={dot}
            activeDot={{ r: 4 }}
            connectNulls={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
