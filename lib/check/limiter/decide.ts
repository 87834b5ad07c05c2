import type { CheckDecision, LimitDecision, LimitReason, LimitSpec } from "@/lib/check/limiter/types";

// From per-limit verdicts to the check's verdict (pure; the reference model uses it too).

// the script's status codes (lua/check.lua): 3 is a penalty's block (run-check.lua)
const REASONS: readonly LimitReason[] = ["rate_limited", "ok", "cost_exceeds_capacity", "penalty"];

/** Reads one limit's six reply integers (lua/check.lua's header). */
export function readLimitReply(spec: LimitSpec, six: readonly number[]): LimitDecision {
  const [status = 0, consumed = 0, remaining = 0, resetMs = 0, retry = -1, waitMs = 0] = six;
  const reason = REASONS[status];
  if (reason === undefined) throw new Error(`limiter script: bad status ${status}`);
  return {
    id: spec.id,
    algorithm: spec.rule.algorithm,
    mode: spec.rule.mode,
    allowed: status === 1,
    reason,
    consumed: consumed === 1,
    limit: spec.rule.limit,
    remaining,
    resetMs,
    retryAfterMs: retry < 0 ? null : retry,
    waitMs,
  };
}

// null retry (never) sorts after every number
const later = (a: number | null, b: number | null): boolean =>
  a === null ? b !== null : b !== null && a > b;

/**
 * The deciding limit is the enforce limit that denied (cost_exceeds_capacity first, then the
 * one with the latest retry: the whole check can pass no earlier), or when allowed the
 * enforce limit with least remaining. Shadow limits never decide.
 */
export function summarize(limits: LimitDecision[]): CheckDecision {
  let deciding: number | null = null;
  let denied = false;
  let waitMs = 0;
  limits.forEach((d, i) => {
    if (d.mode !== "enforce") return;
    const best = deciding === null ? undefined : limits[deciding];
    if (!d.allowed) {
      const worse =
        !best ||
        best.allowed ||
        (d.reason === "cost_exceeds_capacity" && best.reason !== "cost_exceeds_capacity") ||
        // a penalty's block and a rate limit compare by retry alike
        ((d.reason === "cost_exceeds_capacity") === (best.reason === "cost_exceeds_capacity") &&
          later(d.retryAfterMs, best.retryAfterMs));
      if (worse) deciding = i;
      denied = true;
    } else {
      waitMs = Math.max(waitMs, d.waitMs);
      if (!best || (best.allowed && d.remaining < best.remaining)) deciding = i;
    }
  });
  const top = deciding === null ? undefined : limits[deciding];
  return {
    allowed: !denied,
    reason: top && denied ? top.reason : "ok",
    deciding,
    limit: top ? top.limit : null,
    remaining: top ? top.remaining : null,
    resetMs: top ? top.resetMs : null,
    retryAfterMs: top && denied ? top.retryAfterMs : null,
    waitMs: denied ? 0 : waitMs,
    limits,
  };
}
