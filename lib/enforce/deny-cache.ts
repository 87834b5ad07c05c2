import type { CheckDecision } from "@/lib/limiter/types";
import type { DecisionBody } from "@/lib/enforce/types";
import { TtlLru, type Clock } from "@/lib/enforce/ttl-lru";

// Checks known to be denied, answered from memory until their retry time, without Redis.
// This stays exact because a denied check consumes nothing and, until its retryAfterMs, the
// same limits with the same owners cannot admit it: other traffic only consumes more. So a
// stored denial is reused only for the same check signature (tenant, key, route, subject:
// the same counters under one config version), only with the same cost (a larger cost is
// denied too, but maybe for another reason, cost_exceeds_capacity, and with a later retry
// time the cache cannot know), and never for a check with a shadow limit (shadow limits must still be evaluated and
// counted). The retry time is measured from when the call was sent, which is no later than
// when Redis decided, so the cache never denies past the true retry moment. A config
// change or a counter reset clears it.

export interface DeniedEntry {
  decision: CheckDecision;
  /** the last answer built from this entry and the two integers it depends on (see answerFor) */
  memo?: { elapsed: number; retry: number; body: DecisionBody };
  cost: number;
  /** clock time the call was sent */
  sentAt: number;
  /** clock time from which the check may pass again */
  until: number;
}

export class DenyCache {
  private readonly entries: TtlLru<DeniedEntry>;

  constructor(
    capacity = 10_000,
    private readonly now: Clock = performance.now.bind(performance),
  ) {
    this.entries = new TtlLru<DeniedEntry>(capacity, 0, now);
  }

  /** Remembers a denial when it qualifies (rate_limited with a known retry time). */
  remember(signature: string, cost: number, decision: CheckDecision, sentAt: number): void {
    if (decision.allowed || decision.reason !== "rate_limited" || decision.retryAfterMs === null) return;
    if (decision.retryAfterMs <= 0) return;
    const until = sentAt + decision.retryAfterMs;
    this.entries.set(signature, { decision, cost, sentAt, until }, until - this.now());
  }

  /** A stored denial that still holds for this cost, else undefined. */
  lookup(signature: string, cost: number): DeniedEntry | undefined {
    const entry = this.entries.get(signature);
    if (!entry || cost !== entry.cost) return undefined;
    return entry;
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * The answer body for a hit at `now`. agedDecision depends on `now` only through the whole
 * ms elapsed since the call and the retry time rounded up, and the body otherwise only on
 * the signature (same resolution under one config version: the cache is cleared on a new
 * one), so hits within the same ms share one body, built once (and, by the lean path,
 * serialized once). Bodies are never modified after they are built.
 */
export function answerFor(
  entry: DeniedEntry,
  now: number,
  build: (decision: CheckDecision) => DecisionBody,
): DecisionBody {
  const elapsed = Math.max(0, Math.floor(now - entry.sentAt));
  const retry = Math.max(1, Math.ceil(entry.until - now));
  const memo = entry.memo;
  if (memo && memo.elapsed === elapsed && memo.retry === retry) return memo.body;
  const body = build(agedDecision(entry, now));
  entry.memo = { elapsed, retry, body };
  return body;
}

/** The stored decision with its times moved on to `now` (remaining counts as stored). */
export function agedDecision(entry: DeniedEntry, now: number): CheckDecision {
  const elapsed = Math.max(0, Math.floor(now - entry.sentAt));
  const age = (ms: number | null): number | null => (ms === null ? null : Math.max(0, ms - elapsed));
  const limits = entry.decision.limits.map((limit) => ({
    ...limit,
    resetMs: Math.max(0, limit.resetMs - elapsed),
    retryAfterMs: age(limit.retryAfterMs),
  }));
  return {
    ...entry.decision,
    resetMs: age(entry.decision.resetMs),
    retryAfterMs: Math.max(1, Math.ceil(entry.until - now)),
    limits,
  };
}
