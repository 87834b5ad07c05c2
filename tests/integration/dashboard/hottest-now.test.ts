// "Hottest limits: now" reads the live counters, as the Limits tab does: on a view narrowed
// to a key and route, a tenant-wide limit shows its whole counter (not that route's usage),
// a per-key limit its key's, and nothing reads above 100 %. Counters are made by the real
// limiter script; real PostgreSQL and Redis.
import { beforeAll, describe, expect, it } from "vitest";
import { resolveRoutes } from "@/lib/control/config/compile";
import { createApiKey } from "@/lib/control/data/api-keys";
import { counterClient, latestSnapshot } from "@/lib/control/data/counters-store";
import { planCheck } from "@/lib/control/counters/counter-specs";
import { importConfig } from "@/lib/control/data/import-config";
import { liveUtilization } from "@/lib/control/counters/live-utilization";
import { hottestNow } from "@/lib/control/counters/hottest-now";
import { evaluate } from "@/lib/check/limiter/evaluate";
import type { LimitSpec } from "@/lib/check/limiter/types";
import { anyPlan, system, uniqueSlug } from "./fixtures";

const hour = { algorithm: "fixed_window", window: "1h" } as const;
const slug = uniqueSlug("hot-now");
const ROUTE = "POST /v1/search";

/** `cost` units through the limiter for a check of `key` on `route`, as checks count them. */
async function consume(key: string, route: string | null, cost: number): Promise<boolean> {
  const snapshot = await latestSnapshot();
  const tenant = snapshot?.tenants[slug];
  if (!snapshot || !tenant) throw new Error("no snapshot");
  const owners = { tenantId: tenant.id, keyId: tenant.keys[key]?.id ?? null, subject: null };
  const specs = planCheck(tenant, key, resolveRoutes(snapshot, slug, route), owners).flatMap((p) =>
    p.spec ? [p.spec] : [],
  );
  return (await evaluate(counterClient(), specs as LimitSpec[], { cost, dryRun: false })).allowed;
}

beforeAll(async () => {
  await importConfig(system, {
    tenants: [
      {
        slug,
        name: slug,
        plan: await anyPlan(),
        limits: [
          { name: "tenant-cap", by: "tenant", limit: 20, ...hour },
          { name: "per-key", by: "key", limit: 50, ...hour },
        ],
        routes: [{ pattern: ROUTE, limits: [{ name: "search", by: "key", limit: 5, ...hour }] }],
      },
    ],
  });
  for (const k of ["k1", "k2"]) await createApiKey(system, slug, { name: k });
  // 8 checks of k1 off the route, 5 on it (the route's limit full), 2 of k2
  expect(await consume("k1", null, 8)).toBe(true);
  for (let i = 0; i < 5; i++) expect(await consume("k1", ROUTE, 1)).toBe(true);
  expect(await consume("k1", ROUTE, 1)).toBe(false); // the 6th is denied by search
  expect(await consume("k2", null, 2)).toBe(true);
});

describe("Hottest limits: now", () => {
  it("reads the same counters as the Limits tab, whole for a tenant-wide limit on a narrowed view", async () => {
    const hot = await hottestNow(system, slug, { key: "k1", route: ROUTE });
    expect(hot).not.toBeNull();
    const byName = new Map((hot ?? []).map((u) => [u.limit, u]));
    // every check of the tenant, not only k1's on this route
    expect(byName.get("tenant-cap")).toMatchObject({ used: 15, limitValue: 20, scope: "tenant" });
    expect(byName.get("per-key")).toMatchObject({ used: 13, limitValue: 50, scope: "key k1" });
    expect(byName.get("search")).toMatchObject({ used: 5, limitValue: 5, utilization: 1 });
    expect(hot?.[0]?.limit).toBe("search"); // fullest first
    for (const u of hot ?? []) expect(u.utilization).toBeLessThanOrEqual(1);
    const live = await liveUtilization(system, slug);
    const tab = live?.counters.find((c) => c.name === "tenant-cap");
    expect(tab?.used).toBe(byName.get("tenant-cap")?.used);
  });

  it("on the whole tenant shows a per-key limit once, at its fullest key; k2's view leaves out k1", async () => {
    const hot = (await hottestNow(system, slug)) ?? [];
    expect(hot.filter((u) => u.limit === "per-key")).toEqual([expect.objectContaining({ scope: "key k1" })]);
    const k2 = (await hottestNow(system, slug, { key: "k2" })) ?? [];
    expect(k2.find((u) => u.limit === "per-key")).toMatchObject({ used: 2, scope: "key k2" });
    expect(k2.some((u) => u.scope.includes("k1"))).toBe(false);
  });
});
