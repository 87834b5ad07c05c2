"use client";

import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { UsagePoint } from "@/lib/usage/types";
import { COLORS, formatPercent } from "@/components/charts/format";
import { FillingBucket, fillingBucketStart } from "@/components/charts/filling-bucket";
import { CHART_MARGIN, timeAxisProps, timeLabel } from "@/components/charts/time-axis";

// Share of checks rejected per bucket; buckets without traffic are gaps, not 0 %. A bucket
// with no traffic on either side is a line of one point, which draws nothing: those get a dot.

interface RatePoint {
  t: number;
  rate: number | null;
}

export function ratePoints(points: readonly UsagePoint[]): RatePoint[] {
  return points.map((p) => {
    const decided = p.allowed + p.rejected + p.degraded;
    return { t: p.t, rate: decided === 0 ? null : p.rejected / decided };
  });
}

/** Indexes of points with a rate whose neighbours have none (no segment to draw). */
export function isolatedPoints(data: readonly RatePoint[]): Set<number> {
  const out = new Set<number>();
  data.forEach((d, i) => {
    if (d.rate !== null && (data[i - 1]?.rate ?? null) === null && (data[i + 1]?.rate ?? null) === null) out.add(i);
  });
  return out;
}

interface DotProps {
  cx?: number;
  cy?: number;
  index?: number;
}

export function RejectionRateChart({ points, stepMs, now }: { points: UsagePoint[]; stepMs: number; now: number }) {
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
