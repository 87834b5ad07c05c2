"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { BreakdownRow } from "@/lib/usage/types";
import { COLORS, formatCount } from "@/components/charts/format";

// Totals over the range per key, route or tenant (top N, the rest as "(other)").

export function BreakdownChart({ rows, testId }: { rows: BreakdownRow[]; testId: string }) {
  const height = 48 + rows.length * 30;
  return (
    <div data-testid={testId} style={{ width: "100%", height }}>
      <ResponsiveContainer>
        <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 8 }}>
          <CartesianGrid stroke={COLORS.grid} strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" tickFormatter={formatCount} allowDecimals={false} />
          <YAxis type="category" dataKey="name" width={150} tick={{ fontSize: 12 }} />
          <Tooltip formatter={(value) => formatCount(Number(value))} />
          <Legend />
          <Bar dataKey="allowed" name="Allowed" stackId="1" fill={COLORS.allowed} isAnimationActive={false} />
          <Bar
            dataKey="rejected"
            name="Rejected"
            stackId="1"
            fill={COLORS.rejected}
            isAnimationActive={false}
          />
          <Bar
            dataKey="shadowRejected"
            name="Shadow"
            fill={COLORS.shadowRejected}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
