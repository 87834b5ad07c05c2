"use client";

import { useEffect, useState } from "react";
import type { UsageDashboardData } from "@/lib/usage/dashboard-types";

// Polls /api/usage-live every 2 s while the page is open. The previous data stays on screen
// until the next answer replaces it (no empty flash), and a failed poll shows an error
// beside the last good data instead of wiping it.

const EVERY_MS = 2_000;

export interface LiveUsage {
  data: UsageDashboardData;
  error: string | null;
}

export function useLiveUsage(initial: UsageDashboardData, query: string): LiveUsage {
  const [state, setState] = useState<LiveUsage>({ data: initial, error: null });
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    const poll = async () => {
      try {
        const response = await fetch(`/api/usage-live?${query}`, {
          cache: "no-store",
          signal: controller.signal,
        });
        const body = (await response.json()) as UsageDashboardData | { error: { message: string } };
        if ("error" in body) throw new Error(body.error.message);
        if (!stopped) setState({ data: body, error: null });
      } catch (error) {
        if (!stopped)
          setState((s) => ({ data: s.data, error: error instanceof Error ? error.message : String(error) }));
      } finally {
        // the next poll starts after this one ended: slow answers never pile up
        if (!stopped) timer = setTimeout(() => void poll(), EVERY_MS);
      }
    };
    timer = setTimeout(() => void poll(), EVERY_MS);
    return () => {
      stopped = true;
      controller.abort();
      clearTimeout(timer);
    };
  }, [query]);
  return state;
}
