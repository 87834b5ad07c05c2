"use client";

import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { LimitUtilization } from "@/lib/usage/types";
import { COLORS, formatCount, formatPercent } from "@/components/charts/format";

// The hottest limits: share of each limit used in its trailing window (red past 90 %).

function color(ratio: number): string {
  if (ratio >= 0.9) return "#c53030";
  return ratio >= 0.6 ? "#b7791f" : "#2f855a";
}

export function UtilizationChart({ limits }: { limits: LimitUtilization[] }) {
  const data = limits.map((l) => ({
    ...l,
    label: `${l.limit} (${l.scope})`,
    shown: Math.min(l.utilization, 1),
  }));
  return (
    <div data-testid="utilization-chart" style={{ width: "100%", height: 48 + data.length * 30 }}>
      <ResponsiveContainer>
        <BarChart data={data} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid stroke={COLORS.grid} strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" domain={[0, 1]} tickFormatter={formatPercent} />
          <YAxis type="category" dataKey="label" width={260} tick={{ fontSize: 12 }} />
          <Tooltip
            formatter={(_value, _name, item) => {
              const l = item.payload as LimitUtilization;
              return [
                `${formatCount(l.used)} of ${formatCount(l.limitValue)} used, ${formatCount(l.remaining)} left (window ${l.windowMs / 1_000} s)`,
                "Utilization",
              ];
            }}
          />
          <Bar dataKey="shown" name="Utilization" isAnimationActive={false}>
            {data.map((d) => (
              <Cell key={d.label} fill={color(d.utilization)} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
