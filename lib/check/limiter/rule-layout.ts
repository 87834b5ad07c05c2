import type { Algorithm } from "@/lib/shared/limit-types";
import type { LimitArgs, RuleInts } from "@/lib/check/limiter/types";

// One limit's rule as lua/check.lua and lua/check-many.lua read it from ARGV: seven values
// in the order of RULE_SLOTS. lua/run-check.lua names the same slots R_ALG .. R_ENTRY in its
// layout table; tests/unit/limiter/rule-layout.test.ts keeps the two in step.

/** The slots in order: slot i is lua/run-check.lua's R_<name> = i + 1. */
export const RULE_SLOTS = ["ALG", "LIMIT", "WINDOW", "BURST", "SHADOW", "MAX_DELAY", "ENTRY"] as const;

/** Each algorithm's code in the ALG slot (lua/algorithms/*.lua register ALG[code]). */
export const ALGORITHM_CODES = {
  fixed_window: 1,
  sliding_log: 2,
  sliding_window: 3,
  token_bucket: 4,
  leaky_bucket: 5,
  gcra: 6,
  concurrency: 7,
  calendar: 8,
} as const satisfies Record<Algorithm, number>;

/** A rule's values by name (limit-exactness.ts scales L, W and B for the script). */
export interface RuleFields {
  algorithm: Algorithm;
  L: number;
  W: number;
  B: number;
  shadow: boolean;
  /** ms the check may wait (action delay); -1: action reject */
  maxDelay: number;
}

/** Every slot but ENTRY, in slot order. */
export function ruleInts(fields: RuleFields): RuleInts {
  const { algorithm, L, W, B, shadow, maxDelay } = fields;
  return [ALGORITHM_CODES[algorithm], L, W, B, shadow ? 1 : 0, maxDelay];
}

/** All seven slots: the rule's integers, then the limit's entry among its owner's. */
export function ruleWithEntry(ints: RuleInts, entry: string): LimitArgs {
  return [...ints, entry];
}
