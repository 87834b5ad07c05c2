// Whether the limiter's script can do a rule's math exactly. The script computes in
// doubles, so its integer products must stay below 2^53. Isomorphic: config validation
// refuses such rules on import, and the limiter re-checks before every call.

import type { LimitRule } from "@/lib/shared/limit-types";

const EXACT = Number.MAX_SAFE_INTEGER;

function positiveInt(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new RangeError(`${name} must be an integer >= 1, got ${value}`);
  return value;
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

/** Why the script could not do a rule's math exactly, or null when it can. */
export function exactnessProblem(rule: LimitRule): string | null {
  const { L, W, B, delay } = scaled(rule);
  if (rule.algorithm === "sliding_window" && rule.limit * rule.windowMs > EXACT) {
    return "limit x window (ms) must be below 2^53 for sliding_window";
  }
  if (isMeter(rule) && B * W + (delay + 1) * L > EXACT) {
    return "burst x window and maxDelay x limit (reduced by their gcd) must stay below 2^53";
  }
  return null;
}

function isMeter(rule: LimitRule): boolean {
  return rule.algorithm === "token_bucket" || rule.algorithm === "leaky_bucket" || rule.algorithm === "gcra";
}

// For the meters only the rate L/W matters, so both are divided by their gcd.
export function scaled(rule: LimitRule): { L: number; W: number; B: number; delay: number } {
  const limit = positiveInt(rule.limit, "limit");
  const windowMs = positiveInt(rule.windowMs, "windowMs");
  const B = rule.burst === null ? limit : positiveInt(rule.burst, "burst");
  const delay = delayOf(rule);
  if (!isMeter(rule)) return { L: limit, W: windowMs, B: limit, delay };
  const g = gcd(limit, windowMs);
  return { L: limit / g, W: windowMs / g, B, delay };
}

/** maxDelay in ms for action delay on gcra/leaky_bucket; -1 (reject) otherwise. */
function delayOf(rule: LimitRule): number {
  if (rule.action !== "delay" || (rule.algorithm !== "gcra" && rule.algorithm !== "leaky_bucket")) return -1;
  const max = rule.maxDelayMs ?? 0;
  if (!Number.isSafeInteger(max) || max < 0)
    throw new RangeError(`maxDelayMs must be an integer >= 0, got ${max}`);
  return max;
}
