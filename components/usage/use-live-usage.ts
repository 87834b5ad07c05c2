"use client";

import type { UsageDashboardData } from "@/lib/usage/read/dashboard-types";
import { usePolledJson, type Polled } from "@/components/live/use-polled-json";

// Polls /api/usage-live every 2 s while the page is open; the server-rendered data shows
// until the first answer. A custom range that ended in the past no longer changes: no polls.

const EVERY_MS = 2_000;

export type LiveUsage = Polled<UsageDashboardData>;

export function useLiveUsage(initial: UsageDashboardData, query: string): LiveUsage {
  const settled = initial.window !== null && initial.window.to < initial.generatedAt - 60_000;
  return usePolledJson(`/api/usage-live?${query}`, initial, { everyMs: EVERY_MS, active: !settled });
}
