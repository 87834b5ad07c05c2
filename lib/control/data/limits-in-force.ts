import "server-only";
import {
  limitSetFor,
  type CompiledLimit,
  type CompiledTenant,
  type LimitSet,
} from "@/lib/control/config/compile";
import { disabling, limitSlot, overrideOf, type LimitOverride } from "@/lib/control/data/check-now";
import type { SnapshotNow } from "@/lib/control/data/snapshot-now";

// A tenant's limits as /api/check enforces them now, for the dashboard's live views (the
// Limits tab's counters, the limit tree): each limit as the overrides in force leave it,
// with the override it is under. A limit an override disables is gone from the snapshot
// the check uses; here it is kept, marked "disabled", so a view says so instead of losing
// it. Built from snapshotNow, the ops tools' source, so all of them show the same limits.

/** One limit of a set and the temporary override it is under. */
export interface LimitInForce {
  /** as enforced now (a raised, lowered or blocked value); a disabled one as configured */
  limit: CompiledLimit;
  /** null when none applies; value "disabled": the check does not evaluate it */
  override: LimitOverride | null;
}

export interface SetInForce {
  unrouted: LimitInForce[];
  routed: Record<string, LimitInForce[]>;
}

export interface TenantInForce {
  /** the tenant with the overrides in force applied (the same object while they last) */
  tenant: CompiledTenant;
  /** what a check without a key meets */
  limits: SetInForce;
  /** what a key without limits of its own meets (as configured: keys may be overridden apart) */
  keyDefault: SetInForce;
  /** key name -> what a check with that key meets */
  keys: Record<string, SetInForce>;
}

type Disabled = (limit: CompiledLimit) => LimitOverride | null;

function listInForce(plain: readonly CompiledLimit[], now: readonly CompiledLimit[], off: Disabled) {
  if (plain === now) return plain.map((limit) => ({ limit, override: null }));
  const enforced = new Map(now.map((limit) => [limitSlot(limit), limit]));
  return plain.flatMap((limit): LimitInForce[] => {
    const current = enforced.get(limitSlot(limit));
    if (current) return [{ limit: current, override: overrideOf(current) }];
    const override = off(limit);
    return override ? [{ limit, override }] : [];
  });
}

function setInForce(plain: LimitSet, now: LimitSet, off: Disabled): SetInForce {
  const routed: Record<string, LimitInForce[]> = {};
  for (const [pattern, list] of Object.entries(plain.routed))
    routed[pattern] = listInForce(list, now.routed[pattern] ?? [], off);
  return { unrouted: listInForce(plain.unrouted, now.unrouted, off), routed };
}

/** `offFor(key)`: the "disabled" override, if any, that removed a limit from that key's checks. */
function build(
  plain: CompiledTenant,
  tenant: CompiledTenant,
  offFor: (key: string | null) => Disabled,
): TenantInForce {
  const keys: Record<string, SetInForce> = {};
  for (const name of Object.keys(tenant.keys))
    keys[name] = setInForce(limitSetFor(plain, name), limitSetFor(tenant, name), offFor(name));
  return {
    tenant,
    limits: setInForce(plain.limits, tenant.limits, offFor(null)),
    keyDefault: setInForce(plain.keyDefault, tenant.keyDefault, offFor(null)),
    keys,
  };
}

function disabledBy(now: SnapshotNow, slug: string): (key: string | null) => Disabled {
  return (key) => (limit) => {
    const found = disabling(now.active, { tenant: slug, key: key ?? undefined }, limit);
    return found ? { id: found.id, value: "disabled", endsAt: new Date(found.endsAt).toISOString() } : null;
  };
}

// per tenant object: snapshotNow keeps the same objects until the next override start or end
const built = new WeakMap<CompiledTenant, TenantInForce>();

/** The tenant's limits now, or null when the newest version has no such tenant. */
export function tenantInForce(now: SnapshotNow, slug: string): TenantInForce | null {
  const tenant = now.snapshot.tenants[slug];
  if (!tenant) return null;
  let found = built.get(tenant);
  if (!found)
    built.set(tenant, (found = build(now.plain.tenants[slug] ?? tenant, tenant, disabledBy(now, slug))));
  return found;
}

/** A tenant without overrides (every limit as configured): the benchmark's, and tests'. */
export function plainInForce(tenant: CompiledTenant): TenantInForce {
  return build(tenant, tenant, () => () => null);
}

/** Every limit of a set, unrouted first. */
export const allInForce = (set: SetInForce): LimitInForce[] => [
  ...set.unrouted,
  ...Object.values(set.routed).flat(),
];
