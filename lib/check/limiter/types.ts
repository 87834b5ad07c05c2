import type { Algorithm, LimitMode, LimitRule } from "@/lib/shared/limit-types";

// The limiter's input and output. Times are integer milliseconds of Redis server time.

/** One limit matched by a check, with the counter owner the caller resolved. */
export interface LimitSpec {
  /** stable identity of the limit (e.g. its database id); part of the key */
  id: string;
  /** every limit of one check belongs to this tenant: its keys share a hash tag */
  tenantId: string;
  /** the counter owner: tenant id, key id or subject, plus route when per route */
  identity: string;
  /**
   * the owner alone, when the identity adds a route: every counter of one owner shares one
   * Redis key (lib/limiter/keys.ts). Absent: the identity is the owner.
   */
  owner?: string;
  rule: LimitRule;
}

export interface CheckRequest {
  /** units the check consumes, integer 1..1e9 */
  cost: number;
  /** decide and report exactly as the check would be, store nothing */
  dryRun: boolean;
  /**
   * the lease id its concurrency limits take when admitted (lease-id.ts: a random safe
   * integer); evaluate() draws one for a check that has such limits and none
   */
  lease?: number;
}

export type LimitReason = "ok" | "rate_limited" | "cost_exceeds_capacity" | "penalty";

/** One limit's verdict, as of just after the check. */
export interface LimitDecision {
  id: string;
  algorithm: Algorithm;
  mode: LimitMode;
  /** whether this limit alone admits the check */
  allowed: boolean;
  reason: LimitReason;
  /** the check takes this limit's units (also true on dryRun when it would) */
  consumed: boolean;
  limit: number;
  /** units admitted right now, after this check's consumption when consumed */
  remaining: number;
  /** until back at full capacity if nothing else arrives */
  resetMs: number;
  /** when denied: the earliest moment the same check could pass; null when never */
  retryAfterMs: number | null;
  /** action delay: how long the caller waits before doing the work (0 otherwise) */
  waitMs: number;
}

/** The check's verdict: every enforce limit admits, or nothing is consumed. */
export interface CheckDecision {
  allowed: boolean;
  reason: LimitReason;
  /** index into limits of the deciding limit: the one that denied, or when allowed the
   * enforce limit with least remaining; null when no enforce limit applies */
  deciding: number | null;
  limit: number | null;
  remaining: number | null;
  resetMs: number | null;
  retryAfterMs: number | null;
  /** the longest wait among the enforce limits (0 when none or denied) */
  waitMs: number;
  limits: LimitDecision[];
}

export interface Check {
  limits: readonly LimitSpec[];
  request: CheckRequest;
}

/** The six integers of a rule in lua/check.lua's ARGV, in the slot order of rule-layout.ts. */
export type RuleInts = readonly [
  code: number,
  L: number,
  W: number,
  B: number,
  shadow: 0 | 1,
  maxDelay: number,
];

/** What a limit sends to lua/check.lua after its key (see its header): six integers and its entry. */
export type LimitArgs = readonly [...RuleInts, entry: string];

/** What each algorithm file provides. */
export interface AlgorithmCodec {
  algorithm: Algorithm;
  /** the key suffix and script code of the algorithm */
  tag: string;
  /** `nowMs`: the time the check is decided at (epoch ms), for rules whose integers follow the clock (calendar) */
  args(rule: LimitRule, nowMs?: number): RuleInts;
}
