import type { LimitDenial } from "@/lib/usage/read/limit-denials";
import type { KeyShape, PlacedLimit, TenantShape } from "@/lib/control/limit-tree/shape";

// Which node of the tree each rejection belongs to: the node of the limit that denied it
// (the recorder's count per key, route and denying limit: limit-denials.ts), never every
// node the check passed through. Pure. A denial is matched to a limit the check met: the
// key's limits (or, without a key, the tenant's), unrouted first, then those of its route.

export interface Attributed {
  plan: number;
  tenant: number;
  /** pattern -> its tenant-wide (`by: tenant`) route limits' denials, of every key */
  byRoute: Map<string, number>;
  /** key id -> its unrouted `by: key` limits' denials */
  byKey: Map<string, number>;
  /** `${keyId} ${pattern}` -> that key's denials by the limits of that route (any `by`) */
  byKeyRoute: Map<string, number>;
  subjects: number;
  /** denials by no limit the tree has now (renamed or removed since) */
  unplaced: number;
}

interface Candidates {
  unrouted: readonly PlacedLimit[];
  routed: ReadonlyMap<string, readonly PlacedLimit[]>;
}

function candidatesOf(shape: TenantShape, key: KeyShape | undefined): Candidates {
  if (key) return key;
  // without a key: the tenant's limits (a key's `by: key` limits are skipped)
  const subjects = shape.subjects.filter((p) => p.limit.route === null);
  return { unrouted: [...shape.plan, ...shape.tenant, ...subjects], routed: shape.routes };
}

function matchIn(
  list: readonly PlacedLimit[] | undefined,
  d: LimitDenial,
  exact: boolean,
): PlacedLimit | undefined {
  return list?.find(
    (p) => p.limit.name === d.name && p.limit.by === d.by && (!exact || p.limit.level === d.level),
  );
}

/** The limit of `d`: its level told first, then name and `by` alone (a level changed since). */
export function limitOf(shape: TenantShape, key: KeyShape | undefined, d: LimitDenial): PlacedLimit | null {
  const { unrouted, routed } = candidatesOf(shape, key);
  for (const exact of [true, false]) {
    const found =
      matchIn(unrouted, d, exact) ??
      matchIn(routed.get(d.route), d, exact) ??
      // a global route's limit on a check the tenant's own pattern named
      [...routed.values()].map((list) => matchIn(list, d, exact)).find((p) => p !== undefined);
    if (found) return found;
  }
  return null;
}

const add = (map: Map<string, number>, id: string, n: number) => map.set(id, (map.get(id) ?? 0) + n);

export function attribute(shape: TenantShape, denials: readonly LimitDenial[]): Attributed {
  const out: Attributed = {
    plan: 0,
    tenant: 0,
    byRoute: new Map(),
    byKey: new Map(),
    byKeyRoute: new Map(),
    subjects: 0,
    unplaced: 0,
  };
  const keys = new Map(shape.keys.map((k) => [k.id, k]));
  for (const d of denials) {
    const key = d.keyId === "" ? undefined : keys.get(d.keyId);
    const placed = limitOf(shape, key, d);
    const limit = placed?.limit;
    if (!limit) out.unplaced += d.count;
    else if (limit.by === "subject") out.subjects += d.count;
    else if (limit.route !== null) {
      if (limit.by === "tenant") add(out.byRoute, limit.route, d.count);
      if (key) add(out.byKeyRoute, `${key.id} ${limit.route}`, d.count);
    } else if (limit.by === "key") add(out.byKey, d.keyId, d.count);
    else if (limit.id.startsWith("p:")) out.plan += d.count;
    else out.tenant += d.count;
  }
  return out;
}
