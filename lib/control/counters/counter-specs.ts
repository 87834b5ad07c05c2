import "server-only";
import {
  effectiveLimitsOf,
  type CompiledLimit,
  type CompiledTenant,
  type RouteResolution,
} from "@/lib/control/config/compile";
import { encodeKeyPart, entryId, limitKeyPrefix, ownerKey, ownerKeyPrefix } from "@/lib/check/limiter/keys";
import type { LimitSpec } from "@/lib/check/limiter/types";
import { identityOf, ownerOf, specOf, type CounterOwners } from "@/lib/check/limit-specs";

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

/**
 * The effective limits of a check and, where it has the owner, the spec to evaluate. The
 * tenant object is used as given, like the check path's resolvedOf: a subject override's
 * variant of the tenant (apply-overrides.ts) is one.
 */
export function planCheck(
  tenant: CompiledTenant,
  keyName: string | null,
  routes: RouteResolution,
  owners: CounterOwners,
): PlannedLimit[] {
  return effectiveLimitsOf(tenant, keyName, routes).map((limit) => ({
    limit,
    spec: specOf(limit, { ...owners, tenantId: tenant.id }),
  }));
}

/**
 * Where a limit's counters are, for a reset: a sliding log's or local limit's own keys (deleted), or an
 * entry in owner keys (removed from them, lib/limiter/keys.ts); `key` is the one owner key
 * when the request names the owner, else `pattern` is the SCAN pattern of every owner of
 * the limit's kind (t., k. or s.).
 */
export type CounterTarget =
  { kind: "keys"; pattern: string } | { kind: "entries"; entry: string; key: string | null; pattern: string };

export function counterTarget(tenantId: string, limit: CompiledLimit, owners: CounterOwners): CounterTarget {
  // sliding logs and local limits' converged states have keys of their own (local-plan.ts)
  if (
    limit.rule.algorithm === "sliding_log" ||
    limit.rule.algorithm === "concurrency" ||
    limit.local !== undefined
  ) {
    const prefix = limitKeyPrefix(tenantId, limit.id);
    const identity = identityOf(limit, owners);
    return {
      kind: "keys",
      pattern: identity === null ? `${prefix}*` : `${prefix}${encodeKeyPart(identity)}:*`,
    };
  }
  const owner = ownerOf(limit, owners);
  const kind = limit.by === "tenant" ? "t." : limit.by === "key" ? "k." : "s.";
  return {
    kind: "entries",
    entry: entryId(limit.id, limit.route, limit.rule.algorithm),
    key: owner === null ? null : ownerKey(tenantId, owner),
    pattern: `${ownerKeyPrefix(tenantId)}${kind}*`,
  };
}
