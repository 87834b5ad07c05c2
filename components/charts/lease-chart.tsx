"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { UsagePoint } from "@/lib/usage/types";
import { COLORS, formatCount, stepLabel } from "@/components/charts/format";
import { CHART_MARGIN, timeAxisProps, timeLabel } from "@/components/charts/time-axis";
import { useTimeZone } from "@/components/charts/time-zone-context";

// Leases of concurrency limits per bucket: taken, released, expired side by side. An
// expiry is drawn in the bucket its lease ran out in, not the one it was taken in, so a
// bucket's bars need not add up.

const BARS = [
  { key: "leasesAcquired", name: "Acquired" },
  { key: "leasesReleased", name: "Released" },
  { key: "leasesExpired", name: "Expired" },
] as const;

export function LeaseChart({ points, stepMs }: { points: UsagePoint[]; stepMs: number }) {
  const zone = useTimeZone();
  return (
    <div data-testid="lease-chart" style={{ width: "100%", height: 180 }}>
      <ResponsiveContainer>
        <BarChart data={points} margin={CHART_MARGIN}>
          <CartesianGrid stroke={COLORS.grid} strokeDasharray="3 3" />
          <XAxis {...timeAxisProps(stepMs, zone)} padding={{ left: 6, right: 6 }} />
          <YAxis tickFormatter={formatCount} width={56} allowDecimals={false} />
          <Tooltip
            labelFormatter={timeLabel(stepMs, zone)}
            formatter={(value, name) => [`${formatCount(Number(value))} ${stepLabel(stepMs)}`, name]}
          />
          <Legend />
          {BARS.map(({ key, name }) => (
            <Bar key={key} dataKey={key} name={name} fill={COLORS[key]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
