import { VIRTUAL_CLOCK, type VirtualClock } from "@/lib/check/limiter/clock";

// The only place that builds a virtual clock (see lib/limiter/clock.ts): tests-only.

export interface TestClock extends VirtualClock {
  set(ms: number): void;
  advance(ms: number): void;
}

export function createVirtualClock(startMs: number): TestClock {
  let now = startMs;
  return {
    [VIRTUAL_CLOCK]: true,
    nowMs: () => now,
    set: (ms) => {
      now = ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}
