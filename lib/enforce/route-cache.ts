import "server-only";
import { resolveRoutes, type RouteResolution, type Snapshot } from "@/lib/config/compile";

// What a raw route ("GET /v1/items/42") resolves to per tenant, in this config version: the
// route matchers parse and walk the route on every call, and with route ids most checks
// miss the whole-check cache (hot-checks.ts, keyed by the raw route), so the parse was paid
// on most checks (issue 20's bench row (s2): 1,000 ids x 100 keys). Two Maps, tenant then
// route, keyed by the strings the check carries (no key string built per check).
// Bounded: a tenant whose raw routes outnumber its share empties its own map, never another's;
// all of them together past TOTAL (only many tenants can get there) empty everything.

export const ROUTES_PER_TENANT = 20_000;
export const ROUTES_TOTAL = 100_000;

export class RouteCache {
  private readonly tenants = new Map<string, Map<string, RouteResolution>>();
  private total = 0;

  constructor(
    private readonly perTenant = ROUTES_PER_TENANT,
    private readonly maxTotal = ROUTES_TOTAL,
  ) {
    if (perTenant < 1 || maxTotal < perTenant)
      throw new RangeError("bounds must be >= 1 and total >= per tenant");
  }

  resolve(snapshot: Snapshot, slug: string, route: string | null): RouteResolution {
    if (route === null) return resolveRoutes(snapshot, slug, route);
    let routes = this.tenants.get(slug);
    if (routes === undefined) this.tenants.set(slug, (routes = new Map()));
    let resolution = routes.get(route);
    if (resolution === undefined) {
      resolution = resolveRoutes(snapshot, slug, route);
      if (routes.size >= this.perTenant) {
        this.total -= routes.size;
        routes.clear();
      }
      if (this.total >= this.maxTotal) {
        this.clear();
        this.tenants.set(slug, routes);
      }
      routes.set(route, resolution);
      this.total++;
    }
    return resolution;
  }

  /** A new config version: patterns may have changed. */
  clear(): void {
    for (const routes of this.tenants.values()) routes.clear();
    this.tenants.clear();
    this.total = 0;
  }

  get size(): number {
    return this.total;
  }
}
