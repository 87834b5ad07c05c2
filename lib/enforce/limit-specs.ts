import type { CompiledLimit } from "@/lib/config/compile";
import type { LimitSpec } from "@/lib/limiter/types";

// Whose counter a limit counts: the identity part of its Redis key (lib/limiter/keys.ts).
// Shared with the admin API's state and reset calls, which must address the same counters.
// A one-letter tag per `by` keeps the owners apart (a subject that happens to equal a key id
// never shares that key's counter after a limit's `by` changes), and a per-route limit adds
// the resolved pattern, so it counts per route.

export interface CounterOwners {
  tenantId: string;
  keyId: string | null;
  subject: string | null;
}

/** The identity of a limit's counter, or null when the check has no such owner (skipped). */
export function identityOf(limit: CompiledLimit, owners: CounterOwners): string | null {
  let owner: string;
  switch (limit.by) {
    case "tenant":
      owner = `t.${owners.tenantId}`;
      break;
    case "key":
      if (owners.keyId === null) return null;
      owner = `k.${owners.keyId}`;
      break;
    case "subject":
      if (owners.subject === null) return null;
      owner = `s.${owners.subject}`;
      break;
  }
  return limit.route === null ? owner : `${owner} ${limit.route}`;
}

export interface MatchedLimits {
  /** the limits that apply, in snapshot order */
  limits: CompiledLimit[];
  /** their specs for the limiter, same order */
  specs: LimitSpec[];
  /** any shadow limit among them (the deny cache then stays out: shadows must be counted) */
  hasShadow: boolean;
}

/** Limits without an owner in this check (no subject, no key) are left out. */
export function matchLimits(candidates: readonly CompiledLimit[], owners: CounterOwners): MatchedLimits {
  const limits: CompiledLimit[] = [];
  const specs: LimitSpec[] = [];
  let hasShadow = false;
  for (const limit of candidates) {
    const identity = identityOf(limit, owners);
    if (identity === null) continue;
    limits.push(limit);
    specs.push({ id: limit.id, tenantId: owners.tenantId, identity, rule: limit.rule });
    if (limit.rule.mode === "shadow") hasShadow = true;
  }
  return { limits, specs, hasShadow };
}
