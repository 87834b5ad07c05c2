import type { LimitRule } from "@/lib/shared/limit-types";

// The reference model's view of one algorithm, in docs/algorithms.md's own terms. Amounts are BigInt
// so the oracle never rounds, whatever the numbers.

export type State = Record<string, bigint | Array<[bigint, bigint]>>;

/** What one algorithm says about a check of `cost` at time `now` (ms), consuming nothing. */
export interface Look {
  /** admitted at all (with waitMs > 0 when only by waiting, action delay) */
  admits: boolean;
  /** exact wait in ms as a fraction num/den (0 when none) */
  wait: [bigint, bigint];
}

export interface ReferenceAlgorithm {
  /** the cost above which a check is cost_exceeds_capacity */
  capacity(rule: LimitRule): bigint;
  look(state: State | undefined, rule: LimitRule, cost: bigint, now: bigint): Look;
  /** `lease`: the check's lease id (concurrency limits keep it) */
  consume(state: State | undefined, rule: LimitRule, cost: bigint, now: bigint, lease?: number): State;
  remaining(state: State | undefined, rule: LimitRule, now: bigint): bigint;
  /** time (ms) until back at full capacity; searched for when absent */
  resetMs?(state: State | undefined, rule: LimitRule, now: bigint): bigint;
  /** back at full capacity at `now` */
  full(state: State | undefined, rule: LimitRule, now: bigint): boolean;
}

export const big = (n: number): bigint => BigInt(n);
export const max = (a: bigint, b: bigint): bigint => (a > b ? a : b);
export const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
export const floorDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? a / b : -((-a + b - 1n) / b));
export const ceilDiv = (a: bigint, b: bigint): bigint => -floorDiv(-a, b);
export const burstOf = (rule: LimitRule): bigint => big(rule.burst ?? rule.limit);
/** maxDelay in ms when action delay applies, else 0 (no wait allowed) */
export const delayOf = (rule: LimitRule): bigint =>
  rule.action === "delay" && (rule.algorithm === "gcra" || rule.algorithm === "leaky_bucket")
    ? big(rule.maxDelayMs ?? 0)
    : 0n;
export const NO_WAIT: [bigint, bigint] = [0n, 1n];
