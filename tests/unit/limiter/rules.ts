import type { Algorithm, LimitRule } from "@/lib/shared/limit-types";
import type { LimitSpec } from "@/lib/check/limiter/types";

// Builders shared by the limiter tests (unit and integration).

export function rule(
  algorithm: Algorithm,
  limit: number,
  windowMs: number,
  extra: Partial<LimitRule> = {},
): LimitRule {
  return {
    algorithm,
    limit,
    windowMs,
    burst: null,
    action: "reject",
    maxDelayMs: null,
    mode: "enforce",
    onStoreFailure: "open",
    // a calendar rule needs its period: a UTC month (no edge during a test) unless it says otherwise
    ...(algorithm === "calendar" ? { calendar: { period: "month", timeZone: "UTC" } } : {}),
    ...extra,
  };
}

export function spec(tenantId: string, id: string, r: LimitRule, identity = "k:1"): LimitSpec {
  return { id, tenantId, identity, rule: r };
}
