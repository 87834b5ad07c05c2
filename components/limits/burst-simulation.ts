import { ReferenceLimiter } from "@/lib/check/limiter/reference/model";
import type { LimitRule } from "@/lib/shared/limit-types";

// "How does this limit treat a burst?": the reference model (docs/algorithms.md's semantics, with a
// virtual clock) fed traffic at three times the sustained rate for three windows, from a
// fresh state. Each step's requests are grouped into at most ~40 checks (cost = group size)
// so huge limits simulate as fast as small ones.

export interface BurstStep {
  /** ms since the burst began */
  t: number;
  label: string;
  allowed: number;
  delayed: number;
  rejected: number;
}

const STEPS = 30;
const MAX_CHECKS_PER_STEP = 40;

export function simulateBurst(rule: LimitRule, label: (ms: number) => string): BurstStep[] {
  if (rule.algorithm === "concurrency") return simulateLeases(rule, label);
  let now = 0;
  const limiter = new ReferenceLimiter(() => now);
  const spec = {
    id: "preview",
    tenantId: "preview",
    identity: "preview",
    rule: { ...rule, mode: "enforce" as const },
  };
  const stepMs = Math.max(1, Math.round((3 * rule.windowMs) / STEPS));
  const perStep = Math.max(1, Math.ceil((3 * rule.limit * stepMs) / rule.windowMs));
  const capacity = rule.burst ?? rule.limit;
  const group = Math.max(1, Math.min(capacity, Math.ceil(perStep / MAX_CHECKS_PER_STEP)));
  const steps: BurstStep[] = [];
  for (let i = 0; i < STEPS; i += 1) {
    now = i * stepMs;
    const step: BurstStep = { t: now, label: label(now), allowed: 0, delayed: 0, rejected: 0 };
    for (let sent = 0; sent < perStep; sent += group) {
      const cost = Math.min(group, perStep - sent);
      const decision = limiter.check([spec], { cost, dryRun: false });
      if (!decision.allowed) step.rejected += cost;
      else if (decision.waitMs > 0) step.delayed += cost;
      else step.allowed += cost;
    }
    steps.push(step);
  }
  return steps;
}

/**
 * A concurrency limit under the same traffic, where no request is ever released: each holds
 * its slot for the whole lease timeout (the window), so this shows the leases an
 * unreleased burst can take, an upper bound of the leases held (docs/algorithms.md).
 */
function simulateLeases(rule: LimitRule, label: (ms: number) => string): BurstStep[] {
  const stepMs = Math.max(1, Math.round((3 * rule.windowMs) / STEPS));
  const perStep = Math.max(1, Math.ceil((3 * rule.limit * stepMs) / rule.windowMs));
  const taken: Array<{ at: number; count: number }> = [];
  const steps: BurstStep[] = [];
  for (let i = 0; i < STEPS; i += 1) {
    const now = i * stepMs;
    // leases taken at t expire at t + window
    let held = 0;
    for (const lease of taken) if (lease.at + rule.windowMs > now) held += lease.count;
    const allowed = Math.max(0, Math.min(perStep, rule.limit - held));
    if (allowed > 0) taken.push({ at: now, count: allowed });
    steps.push({ t: now, label: label(now), allowed, delayed: 0, rejected: perStep - allowed });
  }
  return steps;
}
