"use client";

import { useState } from "react";
import {
  Area,
  AreaChart,
  CartesianGrid,
  Legend,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { LimitLine } from "@/lib/usage/read/dashboard-types";
import { formatDuration } from "@/lib/shared/duration";
import type { UsagePoint } from "@/lib/usage/types";
import { COLORS, formatCount, stepLabel } from "@/components/charts/format";
import { FillingBucket } from "@/components/charts/filling-bucket";
import { DataStart } from "@/components/charts/data-start";
import { fillingBucketStart } from "@/components/charts/rate-points";
import { CHART_MARGIN, timeAxisProps, timeLabel, yAxisTitle } from "@/components/charts/time-axis";
import { useTimeZone } from "@/components/charts/time-zone-context";

// Allowed vs rejected (and degraded) checks over time, stacked. Animation is off: a live
// refresh every 2 s redraws in place instead of replaying an entry animation (no flicker).

// Stacked bottom to top, in this order. Only allowed has an outline: a stacked series'
// outline runs along the top of the stack even where its own count is 0, which made an
// absent Degraded look like a line over every stack; the bands above are fills only.
const SERIES = [
  { dataKey: "allowed", name: "Allowed", color: COLORS.allowed, opacity: 0.35, stroke: true },
  { dataKey: "rejected", name: "Rejected", color: COLORS.rejected, opacity: 0.55, stroke: false },
  {
    dataKey: "degraded",
    name: "Degraded (Redis unreachable)",
    color: COLORS.degraded,
    opacity: 0.7,
    stroke: false,
  },
] as const;

export interface TrafficChartProps {
  points: UsagePoint[];
  stepMs: number;
  /** the data's "now": the bucket it falls in is shaded as still filling */
  now: number;
  /** limits drawn over the traffic (one key or route) */
  limits?: LimitLine[];
  /** where recorded data begins inside the range ("data starts here"); null: none */
  dataStartsAt?: number | null;
  /** drag across the chart to zoom: called with the selected span [from, to) */
  onZoom?: (from: number, to: number) => void;
  /** the previous period's checks per bucket (same order as points), drawn faded */
  previous?: number[] | null;
}

type MouseState = { activeIndex?: number | string | null | undefined };

export function TrafficChart({
  points,
  stepMs,
  now,
  limits = [],
  dataStartsAt = null,
  onZoom,
  previous,
}: TrafficChartProps) {
  const zone = useTimeZone();
  // the drag selection, as bucket starts: where the mouse went down and where it is now
  const [drag, setDrag] = useState<{ start: number; end: number } | null>(null);
  const bucketAt = (state: MouseState): number | null => {
    const index = state.activeIndex;
    if (index === undefined || index === null) return null;
    return points[Number(index)]?.t ?? null;
  };
  const finish = () => {
    if (drag && onZoom && drag.start !== drag.end) {
      onZoom(Math.min(drag.start, drag.end), Math.max(drag.start, drag.end) + stepMs);
    }
    setDrag(null);
  };
  // lines far above the tightest limit would flatten the traffic: the utilization chart
  // shows every limit, this one those near the tightest
  const tightest = limits[0]?.perStep ?? 0;
  const drawn = limits.filter((l) => l.perStep <= 10 * tightest);
  return (
    <div
      data-testid="traffic-chart"
      style={{ width: "100%", height: 260, cursor: onZoom ? "crosshair" : undefined, userSelect: "none" }}
    >
      <ResponsiveContainer>
        <AreaChart
          data={previous ? points.map((p, i) => ({ ...p, previous: previous[i] ?? 0 })) : points}
          margin={CHART_MARGIN}
          onMouseDown={(state: MouseState) => {
            const t = onZoom ? bucketAt(state) : null;
            if (t !== null) setDrag({ start: t, end: t });
          }}
          onMouseMove={(state: MouseState) => {
            const t = drag ? bucketAt(state) : null;
            if (drag && t !== null && t !== drag.end) setDrag({ ...drag, end: t });
          }}
          onMouseUp={finish}
          onMouseLeave={() => setDrag(null)}
        >
          <CartesianGrid stroke={COLORS.grid} strokeDasharray="3 3" />
          <XAxis {...timeAxisProps(stepMs, zone)} />
          <YAxis tickFormatter={formatCount} width={56} label={yAxisTitle(`checks ${stepLabel(stepMs)}`)} />
          <Tooltip
            labelFormatter={timeLabel(stepMs, zone)}
            formatter={(value) => formatCount(Number(value))}
          />
          <Legend />
          {drawn.map((l) => (
            <ReferenceLine
              key={l.limit}
              y={l.perStep}
              stroke={COLORS.rejected}
              strokeDasharray="6 3"
              ifOverflow="extendDomain"
              label={{
                value: `${l.limit}: ${formatCount(l.limitValue)} / ${formatDuration(l.windowMs)}`,
                position: "insideTopLeft",
                fontSize: 11,
                fill: "var(--text)",
              }}
            />
          ))}
          {drag && drag.start !== drag.end ? (
            <ReferenceArea
              x1={Math.min(drag.start, drag.end)}
              x2={Math.max(drag.start, drag.end)}
              fill="var(--accent)"
              fillOpacity={0.15}
              data-testid="zoom-selection"
            />
          ) : null}
          <FillingBucket from={fillingBucketStart(points, stepMs, now)} stepMs={stepMs} />
          <DataStart at={dataStartsAt} from={points[0]?.t ?? 0} to={points.at(-1)?.t ?? 0} />
          {SERIES.map((series) => (
            <Area
              key={series.dataKey}
              type="monotone"
              dataKey={series.dataKey}
              name={series.name}
              stackId="1"
              stroke={series.stroke ? series.color : "none"}
              fill={series.color}
              fillOpacity={series.opacity}
              isAnimationActive={false}
            />
          ))}
          {previous ? (
            // not stacked: the previous period's checks as a faded dashed outline
            <Area
              type="monotone"
              dataKey="previous"
              name="previous period"
              stroke="var(--muted, #888)"
              strokeDasharray="4 3"
              strokeOpacity={0.8}
              fill="none"
              isAnimationActive={false}
            />
          ) : null}
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
