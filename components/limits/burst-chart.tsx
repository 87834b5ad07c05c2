"use client";

import { useMemo } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { LimitRule } from "@/lib/shared/limit-types";
import { formatDuration } from "@/lib/shared/duration";
import { simulateBurst } from "@/components/limits/burst-simulation";
import { axisUnit, inUnit } from "@/components/limits/burst-axis";

// Colors come from CSS variables so the chart follows light and dark.
// One unit on the time axis and "requests per step" on the other, both named.
export function BurstChart({
  rule,
  waitingFor = null,
}: {
  rule: LimitRule | null;
  /** a field the preview reads is wrong ("Limit must be at least 1"): say so, simulate nothing */
  waitingFor?: string | null;
}) {
  const unit = axisUnit(3 * (rule?.windowMs ?? 1_000));
  const data = useMemo(() => (rule ? simulateBurst(rule, (ms) => inUnit(ms, unit)) : []), [rule, unit]);
  const stepMs = data.length > 1 ? (data[1]?.t ?? 0) - (data[0]?.t ?? 0) : 0;
  if (waitingFor)
    return (
      <p className="error" data-testid="burst-preview-waiting">
        No preview until the form is right: {waitingFor}.
      </p>
    );
  if (!rule)
    return <p className="muted">Fill in algorithm, limit and window to see how a burst is treated.</p>;
  const offered = data.reduce((sum, s) => sum + s.allowed + s.delayed + s.rejected, 0);
  const passed = data.reduce((sum, s) => sum + s.allowed + s.delayed, 0);
  return (
    <figure className="burst-chart" aria-label="How this limit treats a burst">
      <div style={{ width: "100%", height: 200 }}>
        <ResponsiveContainer>
          <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis
              dataKey="label"
              tick={{ fill: "var(--muted)", fontSize: 11 }}
              interval="preserveStartEnd"
              height={36}
              label={{
                value: `time since the burst began (${unit.name})`,
                position: "insideBottom",
                fontSize: 11,
                fill: "var(--muted)",
              }}
            />
            <YAxis
              tick={{ fill: "var(--muted)", fontSize: 11 }}
              width={56}
              label={{
                value: `requests per ${inUnit(stepMs, unit)} ${unit.name}`,
                angle: -90,
                position: "insideLeft",
                // centred on the axis: anchored at its start, a rotated title ran off the top
                textAnchor: "middle",
                fontSize: 11,
                fill: "var(--muted)",
              }}
            />
            <Tooltip contentStyle={{ background: "var(--panel)", border: "1px solid var(--border)" }} />
            <Legend verticalAlign="top" />
            <Bar dataKey="allowed" stackId="a" fill="var(--ok)" isAnimationActive={false} />
            <Bar dataKey="delayed" stackId="a" fill="var(--warn)" isAnimationActive={false} />
            <Bar dataKey="rejected" stackId="a" fill="var(--danger)" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="muted">
        Traffic at 3× the sustained rate for {formatDuration(3 * rule.windowMs)} from a fresh start:{" "}
        {passed.toLocaleString("en")} of {offered.toLocaleString("en")} pass (simulated with the reference
        model).
      </figcaption>
    </figure>
  );
}
