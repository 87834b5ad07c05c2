// The realistic mix's configuration, shared by the seed (Sluice's document) and
// the peer (the same counters as rate-limiter-flexible limiters): 10 tenants of 100 keys,
// 50 global route patterns with an id, and limits of every level, subject limits included.
// Every limit is far above the load, so both servers admit every check and do all the work.

export const TENANTS = 10;
export const KEYS_PER_TENANT = 100;
export const ROUTE_PATTERNS = 50;
export const ROUTE_IDS = 1_000;
export const SUBJECTS = 100_000;

const HUGE = 1_000_000_000;
export const patternOf = (i: number): string => `GET /v1/res${i}/:id`;
export const tenantSlug = (t: number): string => `rt${t}`;
export const keyName = (k: number): string => `k${k}`;
/** the global pattern each tenant also declares as its own (a tenant-route limit on it) */
export const tenantRouteOf = (t: number): number => t * 5 + 2;

/** Whose counter a limit counts, the way both servers name it: by tenant, key or subject. */
export type By = "tenant" | "key" | "subject";

export interface BenchLimit {
  name: string;
  by: By;
}

/** Plan and tenant limits: on every check. */
export const UNROUTED: readonly BenchLimit[] = [
  { name: "tenant-rpm", by: "tenant" },
  { name: "key-rps", by: "key" },
  { name: "subject-rpm", by: "subject" },
  { name: "tenant-burst", by: "tenant" },
];

/** The route limits of pattern i: a global route limit on 2 of every 5, a tenant's own on one. */
export function routedLimits(i: number, tenant: number): BenchLimit[] {
  const limits: BenchLimit[] = [];
  if (i % 5 === 0) limits.push({ name: "route-key", by: "key" });
  if (i % 5 === 1) limits.push({ name: "route-subject", by: "subject" });
  if (i === tenantRouteOf(tenant)) limits.push({ name: "tenant-route", by: "key" });
  return limits;
}

const plan = {
  name: "realistic",
  limits: [
    { name: "tenant-rpm", by: "tenant", algorithm: "sliding_window", limit: HUGE, window: "1m" },
    { name: "key-rps", by: "key", algorithm: "gcra", limit: 1_000_000, window: "1s" },
    { name: "subject-rpm", by: "subject", algorithm: "fixed_window", limit: HUGE, window: "1m" },
  ],
};

const routes = Array.from({ length: ROUTE_PATTERNS }, (_, i) => ({
  pattern: patternOf(i),
  limits: routedLimits(i, -1).map((limit) => ({
    ...limit,
    algorithm: limit.by === "key" ? "token_bucket" : "sliding_window",
    limit: 1_000_000,
    window: "1s",
  })),
}));

/** Plans and routes of a document (an import replaces both lists, so they go in beside the bench's). */
export interface Lists {
  plans: object[];
  routes: object[];
}

/**
 * The document, beside `base` (the identical check's plans and routes); `withKeys`: with
 * the key-level overrides (the keys must exist by then).
 */
export function realisticDocument(withKeys: boolean, base: Lists): Record<string, unknown> {
  const tenants = Array.from({ length: TENANTS }, (_, t) => ({
    slug: tenantSlug(t),
    plan: plan.name,
    // a tenant-level override of a plan limit, and a limit of the tenant's own
    limits: [
      { name: "subject-rpm", limit: HUGE / 2 },
      { name: "tenant-burst", by: "tenant", algorithm: "token_bucket", limit: HUGE, window: "1s" },
    ],
    routes: [
      {
        // any method: the same requests as the global pattern, both resolved and both apply
        pattern: `* /v1/res${tenantRouteOf(t)}/:id`,
        limits: [{ name: "tenant-route", by: "key", algorithm: "gcra", limit: 1_000_000, window: "1s" }],
      },
    ],
    // every 10th key overrides the plan's key limit (the key level)
    keys: withKeys
      ? Array.from({ length: KEYS_PER_TENANT / 10 }, (_, k) => ({
          name: keyName(k * 10),
          limits: [{ name: "key-rps", limit: 2_000_000 }],
        }))
      : [],
  }));
  return { plans: [...base.plans, plan], routes: [...base.routes, ...routes], tenants };
}
