"use client";

import type { UsagePoint } from "@/lib/usage/types";
import { TimeBarChart, type TimeBar } from "@/components/charts/time-bar-chart";

// Checks a shadow limit would have rejected (they were allowed): kept apart from real
// rejections so trying a limit in shadow mode never reads as an incident.

const BARS: readonly TimeBar[] = [
  { key: "shadowRejected", name: "Would be rejected (shadow)", tooltip: "Would be rejected" },
];

export function ShadowChart({ points, stepMs }: { points: UsagePoint[]; stepMs: number }) {
  return <TimeBarChart points={points} stepMs={stepMs} bars={BARS} height={160} testId="shadow-chart" />;
}
