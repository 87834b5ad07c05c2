import type { LimitRule } from "@/lib/shared/limit-types";
import { big, max, NO_WAIT, type ReferenceAlgorithm, type State } from "@/lib/check/limiter/reference/types";

// fixed_window, sliding_log and sliding_window exactly as docs/algorithms.md's table states them.

/** fixed_window: count in window floor(now/W) + cost <= L. */
export const fixedWindow: ReferenceAlgorithm = (() => {
  const count = (s: State | undefined, rule: LimitRule, now: bigint): bigint =>
    s && s.idx === now / big(rule.windowMs) ? (s.count as bigint) : 0n;
  return {
    capacity: (rule) => big(rule.limit),
    look: (s, rule, cost, now) => ({ admits: count(s, rule, now) + cost <= big(rule.limit), wait: NO_WAIT }),
    consume: (s, rule, cost, now) => ({ idx: now / big(rule.windowMs), count: count(s, rule, now) + cost }),
    remaining: (s, rule, now) => big(rule.limit) - count(s, rule, now),
    // docs/algorithms.md: "fixed window: to the window's end"
    resetMs: (_s, rule, now) => big(rule.windowMs) - (now % big(rule.windowMs)),
    full: (s, rule, now) => count(s, rule, now) === 0n,
  };
})();

/** sliding_log: admitted units in (now-W, now] + cost <= L, from the admitted checks' log. */
export const slidingLog: ReferenceAlgorithm = (() => {
  const entries = (s: State | undefined): Array<[bigint, bigint]> =>
    s ? (s.log as Array<[bigint, bigint]>) : [];
  const units = (s: State | undefined, rule: LimitRule, now: bigint): bigint =>
    entries(s)
      .filter(([ts]) => ts > now - big(rule.windowMs))
      .reduce((sum, [, c]) => sum + c, 0n);
  return {
    capacity: (rule) => big(rule.limit),
    look: (s, rule, cost, now) => ({ admits: units(s, rule, now) + cost <= big(rule.limit), wait: NO_WAIT }),
    consume: (s, rule, cost, now) => ({
      log: [...entries(s).filter(([ts]) => ts > now - big(rule.windowMs)), [now, cost]],
    }),
    remaining: (s, rule, now) => big(rule.limit) - units(s, rule, now),
    full: (s, rule, now) => units(s, rule, now) === 0n,
  };
})();

/** sliding_window: prev*(W-elapsed)/W + curr + cost <= L, compared multiplied by W. */
export const slidingWindow: ReferenceAlgorithm = (() => {
  const counts = (s: State | undefined, rule: LimitRule, now: bigint): { prev: bigint; curr: bigint } => {
    const idx = now / big(rule.windowMs);
    if (s && s.idx === idx) return { prev: s.prev as bigint, curr: s.curr as bigint };
    if (s && s.idx === idx - 1n) return { prev: s.curr as bigint, curr: 0n };
    return { prev: 0n, curr: 0n };
  };
  // L*W minus the weighted count times W: the room left, in units of 1/W
  const room = (s: State | undefined, rule: LimitRule, now: bigint): bigint => {
    const W = big(rule.windowMs);
    const { prev, curr } = counts(s, rule, now);
    return big(rule.limit) * W - prev * (W - (now % W)) - curr * W;
  };
  return {
    capacity: (rule) => big(rule.limit),
    look: (s, rule, cost, now) => ({
      admits: room(s, rule, now) >= cost * big(rule.windowMs),
      wait: NO_WAIT,
    }),
    consume: (s, rule, cost, now) => {
      const { prev, curr } = counts(s, rule, now);
      return { idx: now / big(rule.windowMs), prev, curr: curr + cost };
    },
    remaining: (s, rule, now) => max(0n, room(s, rule, now) / big(rule.windowMs)),
    full: (s, rule, now) => room(s, rule, now) === big(rule.limit) * big(rule.windowMs),
  };
})();
