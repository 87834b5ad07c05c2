"use client";

import { useEffect, useState } from "react";

// Polls a JSON endpoint every `everyMs` while `active`. The last good answer stays on screen
// until the next replaces it (no empty flash); a failed poll shows its error beside it. The
// next poll starts after one ended, so slow answers never pile up.

export interface Polled<T> {
  data: T;
  error: string | null;
}

export function usePolledJson<T>(
  url: string,
  initial: T,
  options: { everyMs: number; active?: boolean; immediately?: boolean },
): Polled<T> {
  const { everyMs, active = true, immediately = false } = options;
  const [state, setState] = useState<Polled<T>>({ data: initial, error: null });
  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    const poll = async () => {
      try {
        const response = await fetch(url, { cache: "no-store", signal: controller.signal });
        const body = (await response.json()) as T | { error: { message: string } };
        if (body !== null && typeof body === "object" && "error" in body) throw new Error(body.error.message);
        if (!stopped) setState({ data: body as T, error: null });
      } catch (error) {
        if (!stopped)
          setState((s) => ({ data: s.data, error: error instanceof Error ? error.message : String(error) }));
      } finally {
        if (!stopped) timer = setTimeout(() => void poll(), everyMs);
      }
    };
    if (immediately) void poll();
    else timer = setTimeout(() => void poll(), everyMs);
    return () => {
      stopped = true;
      controller.abort();
      clearTimeout(timer);
    };
  }, [url, everyMs, active, immediately]);
  return state;
}
