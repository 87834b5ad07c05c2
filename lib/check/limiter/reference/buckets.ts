import type { LimitRule } from "@/lib/shared/limit-types";
import {
  big,
  burstOf,
  ceilDiv,
  delayOf,
  floorDiv,
  max,
  min,
  NO_WAIT,
  type Look,
  type ReferenceAlgorithm,
  type State,
} from "@/lib/check/limiter/reference/types";

// token_bucket, leaky_bucket and gcra exactly as docs/algorithms.md's table states them, each in its
// own terms (tokens, level, TAT). Fractions are avoided by scaling: tokens and level are
// kept times W (a rate of L/W per ms becomes L per ms), gcra's times in units of 1/L ms
// (T = W/L ms becomes W).

/** token_bucket: tokens >= cost; capacity B, refilled at L/W per ms, starting full. */
export const tokenBucket: ReferenceAlgorithm = (() => {
  const tokensW = (s: State | undefined, rule: LimitRule, now: bigint): bigint => {
    const cap = burstOf(rule) * big(rule.windowMs);
    if (!s) return cap;
    return min(cap, (s.tokensW as bigint) + (now - (s.at as bigint)) * big(rule.limit));
  };
  return {
    capacity: burstOf,
    look: (s, rule, cost, now) => ({
      admits: tokensW(s, rule, now) >= cost * big(rule.windowMs),
      wait: NO_WAIT,
    }),
    consume: (s, rule, cost, now) => ({
      tokensW: tokensW(s, rule, now) - cost * big(rule.windowMs),
      at: now,
    }),
    remaining: (s, rule, now) => tokensW(s, rule, now) / big(rule.windowMs),
    full: (s, rule, now) => tokensW(s, rule, now) === burstOf(rule) * big(rule.windowMs),
  };
})();

/** The wait of a meter that is over by `over` (in the meter's units, draining `rate` per ms). */
function delayed(over: bigint, rate: bigint, rule: LimitRule): Look {
  if (over <= 0n) return { admits: true, wait: NO_WAIT };
  return { admits: over <= delayOf(rule) * rate, wait: [over, rate] };
}

/** leaky_bucket: level + cost <= B; the level drains at L/W per ms. */
export const leakyBucket: ReferenceAlgorithm = (() => {
  const levelW = (s: State | undefined, rule: LimitRule, now: bigint): bigint =>
    s ? max(0n, (s.levelW as bigint) - (now - (s.at as bigint)) * big(rule.limit)) : 0n;
  const W = (rule: LimitRule): bigint => big(rule.windowMs);
  return {
    capacity: burstOf,
    // wait = (level + cost - B) / (L/W)
    look: (s, rule, cost, now) =>
      delayed(levelW(s, rule, now) + cost * W(rule) - burstOf(rule) * W(rule), big(rule.limit), rule),
    consume: (s, rule, cost, now) => ({ levelW: levelW(s, rule, now) + cost * W(rule), at: now }),
    remaining: (s, rule, now) => max(0n, floorDiv(burstOf(rule) * W(rule) - levelW(s, rule, now), W(rule))),
    full: (s, rule, now) => levelW(s, rule, now) === 0n,
  };
})();

/** gcra: T = W/L, tau = (B-1)*T; admits when max(TAT, now) + cost*T - now <= tau + T. */
export const gcra: ReferenceAlgorithm = (() => {
  // everything in units of 1/L ms
  const T = (rule: LimitRule): bigint => big(rule.windowMs);
  const tau = (rule: LimitRule): bigint => (burstOf(rule) - 1n) * T(rule);
  const tat = (s: State | undefined, rule: LimitRule, now: bigint): bigint =>
    max(s ? (s.tatL as bigint) : 0n, now * big(rule.limit));
  return {
    capacity: burstOf,
    // wait = max(TAT, now) + cost*T - (tau + T) - now, converted to ms (divided by L)
    look: (s, rule, cost, now) =>
      delayed(
        tat(s, rule, now) + cost * T(rule) - (tau(rule) + T(rule)) - now * big(rule.limit),
        big(rule.limit),
        rule,
      ),
    consume: (s, rule, cost, now) => ({ tatL: tat(s, rule, now) + cost * T(rule) }),
    // floor((tau + T - (TAT - now)) / T), as redis-cell
    remaining: (s, rule, now) =>
      max(0n, floorDiv(tau(rule) + T(rule) - (tat(s, rule, now) - now * big(rule.limit)), T(rule))),
    // docs/algorithms.md: "gcra: TAT - now"
    resetMs: (s, rule, now) => ceilDiv(tat(s, rule, now) - now * big(rule.limit), big(rule.limit)),
    full: (s, rule, now) => tat(s, rule, now) === now * big(rule.limit),
  };
})();
