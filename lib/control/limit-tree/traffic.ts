import type { UsageRow } from "@/lib/control/data/usage/db-rows";

// The range's usage rows summed per node of the tree: the whole tenant, per key, per route,
// per key and route. Pure. The tree takes two sums from one read: the checks rejected
// through each node, and the units admitted (how fast each counter fills, for what binds).

export interface Traffic {
  total: number;
  byKey: Map<string, number>;
  byRoute: Map<string, number>;
  /** `${keyId} ${route}` */
  byKeyRoute: Map<string, number>;
}

export function emptyTraffic(): Traffic {
  return { total: 0, byKey: new Map(), byRoute: new Map(), byKeyRoute: new Map() };
}

/** The rows' `count` summed per node (rows counting nothing add no entry). */
export function trafficOf(rows: readonly UsageRow[], count: (row: UsageRow) => number): Traffic {
  const out = emptyTraffic();
  const add = (map: Map<string, number>, id: string, n: number) => map.set(id, (map.get(id) ?? 0) + n);
  for (const r of rows) {
    const n = count(r);
    if (n === 0) continue;
    out.total += n;
    add(out.byKey, r.keyId, n);
    add(out.byRoute, r.route, n);
    add(out.byKeyRoute, `${r.keyId} ${r.route}`, n);
  }
  return out;
}

/** The routes each key sent checks to in the range. */
export function routesByKey(rows: readonly UsageRow[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    if (r.route === "") continue;
    let routes = out.get(r.keyId);
    if (!routes) out.set(r.keyId, (routes = new Set()));
    routes.add(r.route);
  }
  return out;
}
