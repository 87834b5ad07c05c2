"use client";

import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { ReplayPoint } from "@/lib/control/replay/types";
import { COLORS } from "@/components/charts/format";
import { CHART_MARGIN, COUNT_Y_AXIS, countTooltipProps, timeAxisProps } from "@/components/charts/time-axis";
import { useTimeZone } from "@/components/charts/time-zone-context";

// The what-if replay over time: the recorded checks as a line, and per step the checks the
// current and the proposed limit would have rejected, side by side.

const PROPOSED = "#dd6b20";

const LABELS: Record<string, string> = {
  checks: "Recorded checks",
  proposedAllowed: "Allowed by the proposed limit",
  currentRejected: "Rejected by the current limit",
  proposedRejected: "Would be rejected (proposed)",
};

export function ReplayChart({ points, stepMs }: { points: ReplayPoint[]; stepMs: number }) {
  const zone = useTimeZone();
  const data = points.map((p) => ({ ...p, proposedAllowed: p.checks - p.proposedRejected }));
  return (
    <div data-testid="replay-chart" style={{ width: "100%", height: 220 }}>
      <ResponsiveContainer>
        <ComposedChart data={data} margin={CHART_MARGIN}>
          <CartesianGrid stroke={COLORS.grid} strokeDasharray="3 3" />
          <XAxis {...timeAxisProps(stepMs, zone)} padding={{ left: 6, right: 6 }} />
          <YAxis {...COUNT_Y_AXIS} />
          <Tooltip {...countTooltipProps(stepMs, zone, (name) => LABELS[name] ?? name)} />
          <Legend formatter={(name: string) => LABELS[name] ?? name} />
          <Line
            dataKey="proposedAllowed"
            stroke={COLORS.allowed}
            dot={false}
            strokeWidth={2}
            isAnimationActive={false}
          />
          <Bar dataKey="currentRejected" fill={COLORS.rejected} isAnimationActive={false} />
          <Bar dataKey="proposedRejected" fill={PROPOSED} isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
