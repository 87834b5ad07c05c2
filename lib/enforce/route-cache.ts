import "server-only";
import { resolveRoutes, type RouteResolution, type Snapshot } from "@/lib/config/compile";

// What a raw route ("GET /v1/items/42") resolves to per tenant, in this config version: the
// route matchers parse and walk the route on every call, and with route ids most checks
// miss the whole-check cache (hot-checks.ts, keyed by the raw route), so the parse was paid
// on most checks (issue 20's bench row (s2): 1,000 ids x 100 keys). Two Maps, tenant then
// route, keyed by the strings the check carries (no key string built per check). Bounded per
// tenant: a tenant whose raw routes outnumber the bound empties its own map, never another's.

export const ROUTES_PER_TENANT = 10_000;

export class RouteCache {
  private readonly tenants = new Map<string, Map<string, RouteResolution>>();

  constructor(private readonly capacity = ROUTES_PER_TENANT) {
    if (capacity < 1) throw new RangeError("capacity must be >= 1");
  }

  resolve(snapshot: Snapshot, slug: string, route: string | null): RouteResolution {
    if (route === null) return resolveRoutes(snapshot, slug, route);
    let routes = this.tenants.get(slug);
    if (routes === undefined) this.tenants.set(slug, (routes = new Map()));
    let resolution = routes.get(route);
    if (resolution === undefined) {
      resolution = resolveRoutes(snapshot, slug, route);
      if (routes.size >= this.capacity) routes.clear();
      routes.set(route, resolution);
    }
    return resolution;
  }

  /** A new config version: patterns may have changed. */
  clear(): void {
    this.tenants.clear();
  }

  get size(): number {
    let size = 0;
    for (const routes of this.tenants.values()) size += routes.size;
    return size;
  }
}
