import "server-only";
import type { CompiledLimit } from "@/lib/control/config/compile";
import type { LimitDecision, LimitSpec } from "@/lib/check/limiter/types";
import { overrideOf, type CheckNow, type LimitOverride } from "@/lib/control/counters/check-now";

// One limit as the admin API's state and simulator answer it, and which limits of a check
// the limiter evaluates: a limit blocked by an override (0) is decided in memory, as the
// check path does (override-shape.ts), since the limiter takes no limit below 1.

export interface LimitState {
  name: string;
  id: string;
  level: CompiledLimit["level"];
  by: CompiledLimit["by"];
  route: string | null;
  algorithm: string;
  mode: string;
  /** in force now: a temporary override's value while one applies */
  limit: number;
  windowMs: number;
  burst: number | null;
  /** units a check could take right now */
  remaining: number;
  /** until back at full capacity, as if a check of cost 1 came now */
  resetMs: number;
  /** whether a check of cost 1 would pass this limit now */
  wouldAllow: boolean;
  /** when it would not: the earliest time it could */
  retryAfterMs: number | null;
  /** the temporary override in force on this limit, or null */
  override: LimitOverride | null;
  /** a penalty's block in force on this identity: ms left (docs/algorithms.md, Penalties) */
  penaltyBlockMs?: number;
}

/** A limit the check meets but that is not evaluated, and why. */
export interface SkippedLimit {
  name: string;
  by: string;
  reason: string;
  /** the "disabled" override that takes it out of the check, or null */
  override: LimitOverride | null;
}

export interface EvaluatedLimit {
  limit: CompiledLimit;
  spec: LimitSpec;
}

/** The limits with an owner in this check, and the part of them the limiter evaluates. */
export function splitForLimiter(now: CheckNow): { evaluated: EvaluatedLimit[]; counted: EvaluatedLimit[] } {
  const evaluated = now.planned.filter((p): p is EvaluatedLimit => p.spec !== null);
  return { evaluated, counted: evaluated.filter((p) => p.limit.override?.blocked !== true) };
}

/** One limit's state from the limiter's dry-run decision. */
export function report(limit: CompiledLimit, decision: LimitDecision): LimitState {
  return {
    name: limit.name,
    id: limit.id,
    level: limit.level,
    by: limit.by,
    route: limit.route,
    algorithm: limit.rule.algorithm,
    mode: limit.rule.mode,
    limit: limit.rule.limit,
    windowMs: limit.rule.windowMs,
    burst: limit.rule.burst,
    // dryRun reports as of just after the hypothetical check: add back its unit.
    remaining: decision.consumed ? decision.remaining + 1 : decision.remaining,
    resetMs: decision.resetMs,
    wouldAllow: decision.allowed,
    retryAfterMs: decision.retryAfterMs,
    override: overrideOf(limit),
  };
}

/** Until a blocked limit's override ends (ms from `at`): its retry time. */
export function blockLeft(limit: CompiledLimit, at: number): number {
  return Math.max(0, Date.parse(limit.override?.endsAt ?? "") - at);
}

/** A limit blocked by an override: nothing passes until it ends, as the check answers it. */
export function blockedReport(limit: CompiledLimit, at: number): LimitState {
  const left = blockLeft(limit, at);
  return report(limit, {
    id: limit.id,
    algorithm: limit.rule.algorithm,
    mode: limit.rule.mode,
    allowed: false,
    reason: "rate_limited",
    consumed: false,
    limit: 0,
    remaining: 0,
    resetMs: left,
    retryAfterMs: left,
    waitMs: 0,
  });
}

/** Every limit the check meets but does not evaluate: owner not given, or disabled by an override. */
export function skippedOf(now: CheckNow, why: (by: string) => string): SkippedLimit[] {
  const noOwner = now.planned
    .filter((p) => p.spec === null)
    .map((p) => ({ name: p.limit.name, by: p.limit.by, reason: why(p.limit.by), override: null }));
  const disabled = now.disabled.map(({ limit, override }) => ({
    name: limit.name,
    by: limit.by,
    reason: `disabled by a temporary override until ${override.endsAt}`,
    override,
  }));
  return [...noOwner, ...disabled];
}
