import "server-only";
import type { CompiledLimit, CompiledTenant } from "@/lib/control/config/compile";
import { limitSlot, type LimitOverride } from "@/lib/control/counters/check-now";
import {
  allInForce,
  type LimitInForce,
  type SetInForce,
  type TenantInForce,
} from "@/lib/control/counters/limits-in-force";
import { identityFor } from "@/lib/check/limit-specs";
import { encodeKeyPart, entryId, limitKeyPrefix, ownerKey } from "@/lib/check/limiter/keys";

// What the configuration already knows about a tenant's limit tree, derived once per
// compiled tenant (a new config version brings new tenant objects, so the WeakMap is the
// per-version cache): which limits sit at which level, their entry names in the owner keys,
// and the owner keys to read. Each refresh then only reads counters and places numbers.
// The limits are those in force (limits-in-force.ts): a temporary override's value, and a
// limit an override disables kept with that override, so the tree can say so.

export interface PlacedLimit {
  limit: CompiledLimit;
  /** the entry's name in its owner key (lib/limiter/keys.ts) */
  entry: string;
  /** the temporary override in force on it ("disabled": not evaluated now), or null */
  override: LimitOverride | null;
}

/** A sliding log's own sorted set, read beside the owner keys. */
export interface LogRead {
  key: string;
  windowMs: number;
}

export interface KeyShape {
  id: string;
  name: string;
  owner: string;
  ownerKey: string;
  /** every limit a check with this key meets: unrouted, and per route pattern */
  unrouted: PlacedLimit[];
  routed: Map<string, PlacedLimit[]>;
}

export interface TenantShape {
  tenantId: string;
  owner: string;
  ownerKey: string;
  /** `by: tenant` limits without a route: from the plan, and the tenant's own */
  plan: PlacedLimit[];
  tenant: PlacedLimit[];
  /** `by: tenant` limits per route pattern */
  routes: Map<string, PlacedLimit[]>;
  /** every distinct `by: subject` limit */
  subjects: PlacedLimit[];
  keys: KeyShape[];
  keysByName: Map<string, KeyShape>;
  /** owner keys of the tenant and of every key, in that order */
  ownerKeys: string[];
  /** the sliding logs of the tenant's and the keys' counters */
  logs: LogRead[];
}

const shapes = new WeakMap<CompiledTenant, TenantShape>();

function place({ limit, override }: LimitInForce): PlacedLimit {
  return { limit, entry: entryId(limit.id, limit.route, limit.rule.algorithm), override };
}

function keyShape(tenant: CompiledTenant, key: CompiledTenant["keys"][string], set: SetInForce): KeyShape {
  const owner = `k.${key.id}`;
  const routed = new Map(Object.entries(set.routed).map(([pattern, list]) => [pattern, list.map(place)]));
  return {
    id: key.id,
    name: key.name,
    owner,
    ownerKey: ownerKey(tenant.id, owner),
    unrouted: set.unrouted.map(place),
    routed,
  };
}

/** The sliding logs among `limits`, counted for `owner`. */
export function logsOf(tenantId: string, limits: readonly PlacedLimit[], owner: string): LogRead[] {
  return (
    limits
      .filter((p) => p.limit.rule.algorithm === "sliding_log" || p.limit.rule.algorithm === "concurrency")
      // a window of 0 asks lua/read-owners.lua for a lease set's leases held
      .map((p) => ({
        key: logKeyOf(tenantId, p.limit, owner),
        windowMs: p.limit.rule.algorithm === "concurrency" ? 0 : p.limit.rule.windowMs,
      }))
  );
}

function build(inForce: TenantInForce): TenantShape {
  const { tenant } = inForce;
  const sets = [
    inForce.limits,
    inForce.keyDefault,
    ...Object.values(tenant.keys).flatMap((k) =>
      k.limits ? [inForce.keys[k.name] ?? inForce.keyDefault] : [],
    ),
  ];
  const tenantWide = new Map<string, PlacedLimit>();
  const subjects = new Map<string, PlacedLimit>();
  for (const one of sets.flatMap(allInForce)) {
    const { limit } = one;
    const id = limitSlot(limit);
    if (limit.by === "tenant" && !tenantWide.has(id)) tenantWide.set(id, place(one));
    if (limit.by === "subject" && !subjects.has(id)) subjects.set(id, place(one));
  }
  const wide = [...tenantWide.values()];
  const routes = new Map<string, PlacedLimit[]>();
  for (const p of wide)
    if (p.limit.route !== null) routes.set(p.limit.route, [...(routes.get(p.limit.route) ?? []), p]);
  const unrouted = wide.filter((p) => p.limit.route === null);
  const keys = Object.values(tenant.keys)
    .map((k) => keyShape(tenant, k, inForce.keys[k.name] ?? inForce.keyDefault))
    .sort((a, b) => a.name.localeCompare(b.name));
  const owner = `t.${tenant.id}`;
  const tenantKey = ownerKey(tenant.id, owner);
  const logs = [
    ...wide.flatMap((p) => logsOf(tenant.id, [p], owner)),
    ...keys.flatMap((k) =>
      logsOf(
        tenant.id,
        [...k.unrouted, ...[...k.routed.values()].flat()].filter((p) => p.limit.by === "key"),
        k.owner,
      ),
    ),
  ];
  return {
    tenantId: tenant.id,
    owner,
    ownerKey: tenantKey,
    plan: unrouted.filter((p) => p.limit.id.startsWith("p:")),
    tenant: unrouted.filter((p) => !p.limit.id.startsWith("p:")),
    routes,
    subjects: [...subjects.values()],
    keys,
    keysByName: new Map(keys.map((k) => [k.name, k])),
    ownerKeys: [tenantKey, ...keys.map((k) => k.ownerKey)],
    logs,
  };
}

/** Cached per tenant object: one with overrides applied is a new object, so it gets its own. */
export function shapeOf(inForce: TenantInForce): TenantShape {
  let shape = shapes.get(inForce.tenant);
  if (!shape) shapes.set(inForce.tenant, (shape = build(inForce)));
  return shape;
}

/** The sorted set of a sliding log's counter for an owner (lib/check/limiter/keys.ts limitKey). */
export function logKeyOf(tenantId: string, limit: CompiledLimit, owner: string): string {
  const tag = limit.rule.algorithm === "concurrency" ? ":c" : ":l";
  return `${limitKeyPrefix(tenantId, limit.id)}${encodeKeyPart(identityFor(limit, owner))}${tag}`;
}
