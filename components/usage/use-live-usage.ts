"use client";

import type { UsageDashboardData } from "@/lib/usage/dashboard-types";
import { usePolledJson, type Polled } from "@/components/live/use-polled-json";

// Polls /api/usage-live every 2 s while the page is open; the server-rendered data shows
// until the first answer.

const EVERY_MS = 2_000;

export type LiveUsage = Polled<UsageDashboardData>;

export function useLiveUsage(initial: UsageDashboardData, query: string): LiveUsage {
  return usePolledJson(`/api/usage-live?${query}`, initial, { everyMs: EVERY_MS });
}
