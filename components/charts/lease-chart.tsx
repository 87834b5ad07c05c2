"use client";

import type { UsagePoint } from "@/lib/usage/types";
import { TimeBarChart, type TimeBar } from "@/components/charts/time-bar-chart";

// Leases of concurrency limits per bucket: taken, released, expired side by side. An
// expiry is drawn in the bucket its lease ran out in, not the one it was taken in, so a
// bucket's bars need not add up.

const BARS: readonly TimeBar[] = [
  { key: "leasesAcquired", name: "Acquired" },
  { key: "leasesReleased", name: "Released" },
  { key: "leasesExpired", name: "Expired" },
];

export function LeaseChart({ points, stepMs }: { points: UsagePoint[]; stepMs: number }) {
  return <TimeBarChart points={points} stepMs={stepMs} bars={BARS} height={180} testId="lease-chart" />;
}
