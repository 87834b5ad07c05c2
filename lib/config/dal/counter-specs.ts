import "server-only";
import {
  effectiveLimits,
  limitSetFor,
  type CompiledLimit,
  type CompiledTenant,
  type LimitSet,
  type Snapshot,
} from "@/lib/config/compile";
import { encodeKeyPart, limitKeyPrefix } from "@/lib/limiter/keys";
import type { LimitSpec } from "@/lib/limiter/types";
import { identityOf, type CounterOwners } from "@/lib/enforce/limit-specs";

// From a compiled limit and the check's owners to the limiter's counter identity, through
// enforcement's own identityOf, so state reads and resets touch exactly the counters checks use.

export type { CounterOwners };

/** Whose counter a limit counts in; null when the check lacks that owner (a subject, a key). */
export function counterIdentity(limit: CompiledLimit, owners: CounterOwners): string | null {
  return identityOf(limit, owners);
}

export interface PlannedLimit {
  limit: CompiledLimit;
  spec: LimitSpec | null;
}

/** The effective limits of a check and, where it has the owner, the spec to evaluate. */
export function planCheck(
  snapshot: Snapshot,
  tenant: CompiledTenant,
  keyName: string | null,
  routePattern: string | null,
  owners: CounterOwners,
): PlannedLimit[] {
  return effectiveLimits(snapshot, tenant.slug, keyName, routePattern).map((limit) => {
    const identity = counterIdentity(limit, owners);
    return {
      limit,
      spec: identity === null ? null : { id: limit.id, tenantId: tenant.id, identity, rule: limit.rule },
    };
  });
}

function setLimits(set: LimitSet): CompiledLimit[] {
  return [...set.unrouted, ...Object.values(set.routed).flat()];
}

/**
 * Every compiled limit of the tenant with this name (one per distinct counter id): the
 * tenant's and every key's, or only those a check with `keyName` meets.
 */
export function limitsNamed(tenant: CompiledTenant, name: string, keyName: string | null): CompiledLimit[] {
  const sets =
    keyName !== null
      ? [limitSetFor(tenant, keyName)]
      : [
          tenant.limits,
          tenant.keyDefault,
          ...Object.values(tenant.keys).flatMap((k) => (k.limits ? [k.limits] : [])),
        ];
  const byId = new Map<string, CompiledLimit>();
  for (const limit of sets.flatMap(setLimits)) if (limit.name === name) byId.set(limit.id, limit);
  return [...byId.values()];
}

/** The SCAN pattern of a limit's counters: one owner's, or every owner's when null. */
export function counterPattern(tenantId: string, limitId: string, identity: string | null): string {
  const prefix = limitKeyPrefix(tenantId, limitId);
  return identity === null ? `${prefix}*` : `${prefix}${encodeKeyPart(identity)}:*`;
}
