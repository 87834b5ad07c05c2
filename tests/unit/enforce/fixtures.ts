import type { CompiledLimit } from "@/lib/control/config/compile";
import type { DecisionBody, LimitReport } from "@/lib/check/types";
import type { Denial } from "@/lib/check/deny-cache";
import { DecisionTemplate } from "@/lib/check/render/decision-template";
import type { LimitDecision } from "@/lib/check/limiter/types";
import type { Algorithm, LimitRule } from "@/lib/shared/limit-types";

// Small builders for the enforcement unit tests.

export function compiledLimit(
  name: string,
  by: CompiledLimit["by"],
  overrides: Partial<LimitRule> = {},
  route: string | null = null,
): CompiledLimit {
  return {
    id: `t:${name}`,
    name,
    level: "tenant",
    by,
    route,
    rule: {
      algorithm: "token_bucket",
      limit: 10,
      windowMs: 1_000,
      burst: null,
      action: "reject",
      maxDelayMs: null,
      mode: "enforce",
      onStoreFailure: "open",
      ...overrides,
    },
    provenance: [],
  };
}

export function limitReport(name: string, overrides: Partial<LimitReport> = {}): LimitReport {
  return {
    name,
    level: "tenant",
    by: "tenant",
    algorithm: "token_bucket",
    limit: 100,
    windowMs: 1_000,
    remaining: 5,
    resetMs: 4_200,
    allowed: true,
    mode: "enforce",
    ...overrides,
  };
}

export function body(limits: LimitReport[], overrides: Partial<DecisionBody> = {}): DecisionBody {
  return {
    allowed: true,
    reason: "ok",
    tenant: "acme",
    key: null,
    route: null,
    limit: null,
    remaining: null,
    resetMs: null,
    retryAfterMs: null,
    waitMs: 0,
    limits,
    degraded: false,
    configVersion: 1,
    ...overrides,
  };
}

export function limitDecision(overrides: Partial<LimitDecision> = {}): LimitDecision {
  return {
    id: "t:a",
    algorithm: "gcra" as Algorithm,
    mode: "enforce",
    allowed: false,
    reason: "rate_limited",
    consumed: false,
    limit: 10,
    remaining: 0,
    resetMs: 900,
    retryAfterMs: 100,
    waitMs: 0,
    ...overrides,
  };
}

/** The answer template of every denial() (one shape's): the deny cache answers for it only. */
export const denialTemplate = new DecisionTemplate(
  [compiledLimit("key-rps", "key", { algorithm: "gcra" })],
  { tenant: "acme", route: null },
  1,
);

/** A denial as Redis answers it, for the deny cache: one gcra limit of 10, reset in 900 ms. */
export function denial(
  retryAfterMs: number | null,
  reason: "rate_limited" | "cost_exceeds_capacity" | "ok" = "rate_limited",
): Denial {
  const template = denialTemplate;
  const status = reason === "ok" ? 1 : reason === "rate_limited" ? 0 : 2;
  const reply = [status === 1 ? 1 : 0, 0, status, 0, 0, 900, retryAfterMs ?? -1, 0];
  return { template, keyJson: '"k"', reply, at: 0, rendered: template.render(reply, 0, '"k"') };
}
