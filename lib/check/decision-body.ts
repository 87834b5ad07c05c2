import type { CompiledLimit } from "@/lib/check/published/snapshot-types";
import type { CheckDecision } from "@/lib/check/limiter/types";
import type { Early, Resolved } from "@/lib/check/resolve";
import type { DecisionBody, DecisionOutcome, DegradedCause, LimitReport } from "@/lib/check/types";

// Decision bodies exactly as docs/api.md shows them, from the three ways a check is decided:
// without counters (early), by Redis (or the deny cache), or degraded by onStoreFailure.

function report(
  limit: CompiledLimit,
  remaining: number | null,
  resetMs: number | null,
  allowed: boolean,
): LimitReport {
  const body: LimitReport = {
    name: limit.name,
    level: limit.level,
    by: limit.by,
    algorithm: limit.rule.algorithm,
    limit: limit.rule.limit,
    windowMs: limit.rule.windowMs,
    remaining,
    resetMs,
    allowed,
    mode: limit.rule.mode,
  };
  if (limit.override) body.override = { id: limit.override.id, endsAt: limit.override.endsAt };
  return body;
}

export function earlyBody(decided: Early, configVersion: number): DecisionBody {
  return {
    allowed: false,
    reason: decided.reason,
    tenant: decided.tenantSlug,
    key: decided.keyName,
    route: decided.route,
    limit: null,
    remaining: null,
    resetMs: null,
    retryAfterMs: null,
    waitMs: 0,
    limits: [],
    degraded: false,
    configVersion,
  };
}

export function limiterBody(
  resolved: Resolved,
  decision: CheckDecision,
  configVersion: number,
): DecisionBody {
  const { limits } = resolved.matched;
  const reports: LimitReport[] = new Array<LimitReport>(limits.length);
  for (let i = 0; i < limits.length; i++) {
    const verdict = decision.limits[i];
    const limit = limits[i] as CompiledLimit;
    reports[i] = verdict
      ? report(limit, verdict.remaining, verdict.resetMs, verdict.allowed)
      : report(limit, null, null, true);
  }
  return {
    allowed: decision.allowed,
    reason: decision.reason,
    tenant: resolved.tenant.slug,
    key: resolved.keyName,
    route: resolved.route,
    limit: decision.limit,
    remaining: decision.remaining,
    resetMs: decision.resetMs,
    retryAfterMs: decision.retryAfterMs,
    waitMs: decision.waitMs,
    limits: reports,
    degraded: false,
    configVersion,
  };
}

/** Redis not reached in time: every enforce limit decides by its onStoreFailure. */
export function degradedBody(resolved: Resolved, configVersion: number, cause: DegradedCause): DecisionBody {
  let allowed = true;
  const reports = resolved.matched.limits.map((limit) => {
    const admits = limit.rule.mode === "shadow" || limit.rule.onStoreFailure === "open";
    if (!admits) allowed = false;
    return report(limit, null, null, admits);
  });
  return {
    allowed,
    reason: allowed ? "ok" : "store_unavailable",
    tenant: resolved.tenant.slug,
    key: resolved.keyName,
    route: resolved.route,
    limit: null,
    remaining: null,
    resetMs: null,
    retryAfterMs: null,
    waitMs: 0,
    limits: reports,
    degraded: true,
    cause,
    configVersion,
  };
}

/** How usage counts a decision: a shadow limit's denial of an admitted check is its own outcome. */
export function outcomeOf(body: DecisionBody): DecisionOutcome {
  if (body.degraded) return "degraded";
  if (!body.allowed) return "rejected";
  for (const limit of body.limits) if (limit.mode === "shadow" && !limit.allowed) return "shadow_rejected";
  return "allowed";
}
