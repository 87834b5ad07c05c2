"use client";

import type { LimitTreeData } from "@/lib/control/limit-tree/types";
import { usePolledJson, type Polled } from "@/components/live/use-polled-json";

// Polls /api/limit-tree every 2 s, the usage charts' pace (use-live-usage.ts), while the
// chart is on screen (`active`): a chart scrolled out of sight costs the servers nothing.
// A new view (drill-down) is fetched at once.

const EVERY_MS = 2_000;

export type LiveTree = Polled<LimitTreeData | null>;

export function useLiveLimitTree(query: string, active: boolean): LiveTree {
  return usePolledJson<LimitTreeData | null>(`/api/limit-tree?${query}`, null, {
    everyMs: EVERY_MS,
    active,
    immediately: true,
  });
}
