// The configuration of npm run bench:config: one plan, and per tenant two limits of its own
// (one overrides the plan's, the value the changes edit), five routes of two limits each.
// Limits are set far above what the bench's checks use, so no check is ever denied.
// Keys are not in the document (an import cannot create them yet): seed-keys.ts makes them.

export const PLAN = "bench-config";
/** The tenant limit each change edits; checks report it in `limits[]`, so B's answer shows the value. */
export const CHANGED_LIMIT = "tenant-rpm";
export const ROUTES_PER_TENANT = 5;
export const KEYS_PER_TENANT = 3;
export const BASE_VALUE = 100_000_000;

type Limit = Record<string, string | number>;

interface TenantRoute {
  pattern: string;
  limits: Limit[];
}

export interface TenantDoc {
  slug: string;
  plan: string;
  limits: Limit[];
  routes: TenantRoute[];
}

export interface ConfigDoc {
  plans?: Array<{ name: string; limits: Limit[] }>;
  tenants: TenantDoc[];
}

export const slugOf = (i: number): string => `t${String(i).padStart(5, "0")}`;

/** A route of tenant routes' i-th pattern, as a check names it. */
export const routeOf = (r: number): string => `GET /v1/r${r}/42`;

const big = 1_000_000_000;

export function planDoc(keyRps: number = big): { name: string; limits: Limit[] } {
  return {
    name: PLAN,
    limits: [
      { name: CHANGED_LIMIT, by: "tenant", algorithm: "sliding_window", limit: big, window: "1m" },
      { name: "key-rps", by: "key", algorithm: "gcra", limit: keyRps, window: "1s" },
    ],
  };
}

export function tenantDoc(i: number, value: number = BASE_VALUE): TenantDoc {
  return {
    slug: slugOf(i),
    plan: PLAN,
    limits: [
      { name: CHANGED_LIMIT, limit: value },
      { name: "tenant-burst", by: "tenant", algorithm: "gcra", limit: big, window: "1s" },
    ],
    routes: Array.from({ length: ROUTES_PER_TENANT }, (_, r) => ({
      pattern: `GET /v1/r${r}/:id`,
      limits: [
        { name: `r${r}-key`, by: "key", algorithm: "token_bucket", limit: big, window: "1s" },
        { name: `r${r}-tenant`, by: "tenant", algorithm: "fixed_window", limit: big, window: "1m" },
      ],
    })),
  };
}

/** The whole document of `tenants` tenants (indexes from..to-1 when importing in parts). */
export function wholeDoc(from: number, to: number, withPlan: boolean): ConfigDoc {
  const tenants = Array.from({ length: to - from }, (_, k) => tenantDoc(from + k));
  return withPlan ? { plans: [planDoc()], tenants } : { tenants };
}
