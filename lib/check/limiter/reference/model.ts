import type { Algorithm } from "@/lib/shared/limit-types";
import type { CheckDecision, CheckRequest, LimitDecision, LimitSpec } from "@/lib/check/limiter/types";
import { summarize } from "@/lib/check/limiter/decide";
import { big, ceilDiv, type ReferenceAlgorithm, type State } from "@/lib/check/limiter/reference/types";
import { fixedWindow, slidingLog, slidingWindow } from "@/lib/check/limiter/reference/windows";
import { gcra, leakyBucket, tokenBucket } from "@/lib/check/limiter/reference/buckets";
import { concurrency, released } from "@/lib/check/limiter/reference/leases";
import { PenaltyBook, type PenaltyVerdict } from "@/lib/check/limiter/reference/penalty-book";
import { calendarQuota } from "@/lib/check/limiter/reference/calendar";

// The reference model: docs/algorithms.md's semantics in memory, with an injected clock (integer ms).
// It is the oracle for the Lua script, so it derives what docs/algorithms.md defines by a property
// rather than by the script's formulas: retryAfterMs is searched for as "the earliest time
// the same check would be admitted", resetMs (where docs/algorithms.md gives no formula) as "the
// earliest time the limit is back at full capacity".

/** Each algorithm's reference model (also what-if replay runs them: lib/replay/simulate.ts). */
export const REFERENCE_ALGORITHMS: Record<Algorithm, ReferenceAlgorithm> = {
  fixed_window: fixedWindow,
  sliding_log: slidingLog,
  sliding_window: slidingWindow,
  token_bucket: tokenBucket,
  leaky_bucket: leakyBucket,
  gcra,
  concurrency,
  calendar: calendarQuota,
};

/** The least t >= 0 with holds(t), for a predicate that stays true once true. */
function earliest(holds: (t: bigint) => boolean): bigint {
  if (holds(0n)) return 0n;
  let lo = 0n;
  let hi = 1n;
  while (!holds(hi)) {
    if (hi > 1n << 62n) throw new Error("reference: the check never passes");
    [lo, hi] = [hi, hi * 2n];
  }
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if (holds(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

export class ReferenceLimiter {
  protected readonly states = new Map<string, State>();
  /** penalties' blocks, by the same key as the limit's state */
  readonly penalties = new PenaltyBook();

  constructor(protected readonly clock: () => number) {}

  check(limits: readonly LimitSpec[], request: CheckRequest): CheckDecision {
    const now = big(this.clock());
    const cost = big(request.cost);

    const seen = limits.map((spec) => {
      const alg = REFERENCE_ALGORITHMS[spec.rule.algorithm];
      const key = [spec.tenantId, spec.id, spec.identity, spec.rule.algorithm].join("\u0000");
      const state = this.states.get(key);
      const look = alg.look(state, spec.rule, cost, now);
      const own =
        cost > alg.capacity(spec.rule) ? "cost_exceeds_capacity" : look.admits ? "ok" : "rate_limited";
      const verdict: PenaltyVerdict | null = spec.rule.penalty
        ? this.penalties.look(key, spec.rule.penalty, own, Number(now))
        : null;
      const reason = verdict ? verdict.reason : own;
      return { spec, alg, key, state, look, reason, verdict } as const;
    });
    const allowed = seen.every((s) => s.spec.rule.mode === "shadow" || s.reason === "ok");
    const decisions = seen.map(({ spec, alg, key, state, look, reason, verdict }): LimitDecision => {
      const { rule } = spec;
      // A shadow limit consumes on its own verdict, except a sliding log: a denied check
      // adds no entry to any log (a shadow log must not grow on rejected traffic), and a
      // concurrency limit: a denied check does not run, so it holds no lease.
      const shadowConsumes =
        rule.mode === "shadow" && rule.algorithm !== "sliding_log" && rule.algorithm !== "concurrency";
      const consumed = reason === "ok" && (allowed || shadowConsumes);
      const after = consumed ? alg.consume(state, rule, cost, now, request.lease) : state;
      if (consumed && !request.dryRun && after) this.states.set(key, after);
      if (verdict?.starts && !request.dryRun) this.penalties.record(key, verdict.starts);
      const retry =
        reason === "rate_limited"
          ? earliest((t) => alg.look(state, rule, cost, now + t).admits)
          : reason === "penalty"
            ? big(verdict?.retryMs ?? 0)
            : null;
      const reset = alg.resetMs
        ? alg.resetMs(after, rule, now)
        : earliest((t) => alg.full(after, rule, now + t));
      return {
        id: spec.id,
        algorithm: rule.algorithm,
        mode: rule.mode,
        allowed: reason === "ok",
        reason,
        consumed,
        limit: rule.limit,
        remaining: reason === "penalty" ? 0 : Number(alg.remaining(after, rule, now)),
        resetMs: Number(reset),
        retryAfterMs: retry === null ? null : Number(retry),
        waitMs: consumed ? Number(ceilDiv(look.wait[0], look.wait[1])) : 0,
      };
    });
    return summarize(decisions);
  }

  /** Releases lease `id` from the concurrency limits among `limits`: how many held it. */
  release(limits: readonly LimitSpec[], id: number): number {
    const now = big(this.clock());
    let count = 0;
    let expired = false;
    for (const spec of limits) {
      if (spec.rule.algorithm !== "concurrency") continue;
      const key = [spec.tenantId, spec.id, spec.identity, spec.rule.algorithm].join("\u0000");
      const state = this.states.get(key);
      const mine = state
        ? (state.leases as Array<[bigint, bigint]>).filter(([, lease]) => lease === big(id))
        : [];
      // a lease past its expiry in any set has expired, though no write dropped it yet
      if (mine.some(([expiry]) => expiry <= now)) expired = true;
      count += mine.length;
      const after = released(state, id);
      if (after) this.states.set(key, after);
    }
    return expired ? 0 : count;
  }
}
