import type { CompiledLimit } from "@/lib/check/published/snapshot-types";
import type { LimitSpec } from "@/lib/check/limiter/types";

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

/** Whose counter a limit counts (tenant, key or subject), or null when the check has no such owner. */
export function ownerOf(limit: CompiledLimit, owners: CounterOwners): string | null {
  switch (limit.by) {
    case "tenant":
      return `t.${owners.tenantId}`;
    case "key":
      return owners.keyId === null ? null : `k.${owners.keyId}`;
    case "subject":
      return owners.subject === null ? null : `s.${owners.subject}`;
  }
}

/** The identity of a limit's counter: its owner, plus its route when it counts per route. */
export function identityFor(limit: CompiledLimit, owner: string): string {
  return limit.route === null ? owner : `${owner} ${limit.route}`;
}

/** The identity of a limit's counter, or null when the check has no such owner (skipped). */
export function identityOf(limit: CompiledLimit, owners: CounterOwners): string | null {
  const owner = ownerOf(limit, owners);
  return owner === null ? null : identityFor(limit, owner);
}

/** The limiter's spec of a limit for this check's owners, or null when it has no such owner. */
export function specOf(limit: CompiledLimit, owners: CounterOwners): LimitSpec | null {
  const owner = ownerOf(limit, owners);
  if (owner === null) return null;
  return {
    id: limit.id,
    tenantId: owners.tenantId,
    identity: identityFor(limit, owner),
    owner,
    rule: limit.rule,
  };
}

export interface MatchedLimits {
  /** the limits that apply, in snapshot order */
  limits: CompiledLimit[];
  /** their specs for the limiter, same order */
  specs: LimitSpec[];
  /** any shadow limit among them (the deny cache then stays out: shadows must be counted) */
  hasShadow: boolean;
  /** any local limit among them (consistency: local; lib/check/local/ decides the check) */
  hasLocal: boolean;
  /** any concurrency limit among them (the check takes a lease; the deny cache stays out) */
  hasLease: boolean;
}

/** Limits without an owner in this check (no subject, no key) are left out. */
export function matchLimits(candidates: readonly CompiledLimit[], owners: CounterOwners): MatchedLimits {
  const limits: CompiledLimit[] = [];
  const specs: LimitSpec[] = [];
  let hasShadow = false;
  let hasLocal = false;
  let hasLease = false;
  for (const limit of candidates) {
    const spec = specOf(limit, owners);
    if (spec === null) continue;
    limits.push(limit);
    specs.push(spec);
    if (limit.rule.mode === "shadow") hasShadow = true;
    if (limit.local !== undefined) hasLocal = true;
    if (limit.rule.algorithm === "concurrency") hasLease = true;
  }
  return { limits, specs, hasShadow, hasLocal, hasLease };
}
