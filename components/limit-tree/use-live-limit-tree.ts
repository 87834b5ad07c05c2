"use client";

import { useEffect, useState } from "react";
import type { LimitTreeData } from "@/lib/limit-tree/types";

// Polls /api/limit-tree every 2 s, the usage charts' pace (use-live-usage.ts), while the
// chart is on screen (`active`): a chart scrolled out of sight costs the servers nothing.
// The last good data stays on screen through a failed poll; a new view (drill-down) is
// fetched at once.

const EVERY_MS = 2_000;

export interface LiveTree {
  data: LimitTreeData | null;
  error: string | null;
}

export function useLiveLimitTree(query: string, active: boolean): LiveTree {
  const [state, setState] = useState<LiveTree>({ data: null, error: null });
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    const poll = async () => {
      try {
        const response = await fetch(`/api/limit-tree?${query}`, {
          cache: "no-store",
          signal: controller.signal,
        });
        const body = (await response.json()) as LimitTreeData | { error: { message: string } };
        if ("error" in body) throw new Error(body.error.message);
        if (!stopped) setState({ data: body, error: null });
      } catch (error) {
        if (!stopped)
          setState((s) => ({ data: s.data, error: error instanceof Error ? error.message : String(error) }));
      } finally {
        if (!stopped) timer = setTimeout(() => void poll(), EVERY_MS);
      }
    };
    void poll();
    return () => {
      stopped = true;
      controller.abort();
      clearTimeout(timer);
    };
  }, [query, active]);
  return state;
}
