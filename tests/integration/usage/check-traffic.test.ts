import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/control/data/api-keys";
import { importConfig } from "@/lib/control/data/import-config";
import { closeDb, db } from "@/lib/control/data/db";
import { storedRows } from "@/lib/control/data/usage/stored-rows";
import { closeRedis, redis } from "@/lib/shared/redis/redis";
import { jobKeys } from "@/lib/usage/keys";
import { queryUsage } from "@/lib/usage/read/api-series";
import { dashboardData } from "@/lib/usage/read/dashboard";
import { waitFor } from "../../wait-for";
import { RUN, SYSTEM } from "./setup";

// Known traffic through /api/check of the two running app processes (APP_URL, APP_URL_2),
// half before and half after a minute boundary; once the rollup job of one of them has
// moved both minutes to PostgreSQL, the usage query returns exactly that traffic per
// outcome, key and route. Needs server.ts to call startUsageJobs().

const APPS = [process.env.APP_URL, process.env.APP_URL_2].filter((u): u is string => Boolean(u));
const TOKEN = process.env.SLUICE_BOOTSTRAP_TOKEN ?? "";
const slug = `${RUN}-http`.toLowerCase();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function check(
  app: string,
  body: Record<string, unknown>,
): Promise<{ allowed: boolean; reason: string }> {
  const response = await fetch(`${app}/api/check`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ tenant: slug, ...body }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { allowed: boolean; reason: string };
}

/** 3 checks on the hot route with key a (the tenant-wide limit of 4 per hour), 2 free with key b. */
async function traffic(app: string, hotKey: string) {
  const results = [];
  for (let i = 0; i < 3; i++)
    results.push(await check(app, { key: hotKey, route: "GET /v1/hot/1", subject: "192.0.2.1" }));
  for (let i = 0; i < 2; i++) results.push(await check(app, { key: "b", route: "GET /v1/free" }));
  return results;
}

describe.skipIf(APPS.length < 2 || !TOKEN)("usage of traffic through /api/check on two servers", () => {
  beforeAll(async () => {
    await importConfig(SYSTEM, {
      tenants: [
        {
          slug,
          name: "Usage HTTP test",
          plan: "pro",
          routes: [
            {
              pattern: "GET /v1/hot/:id",
              limits: [{ name: "hot", by: "tenant", algorithm: "fixed_window", limit: 4, window: "1h" }],
            },
            { pattern: "GET /v1/free", limits: [] },
          ],
        },
      ],
    });
    for (const name of ["a", "b"]) await createApiKey(SYSTEM, slug, { name });
    // both servers know the tenant (dry runs are not counted as usage)
    for (const app of APPS) {
      for (let i = 0; i < 50; i++) {
        const probe = await check(app, { key: "a", route: "GET /v1/free", dryRun: true });
        if (probe.reason !== "unknown_tenant" && probe.reason !== "unknown_key") break;
        await sleep(100);
      }
    }
  });

  afterAll(async () => {
    await closeRedis();
    await closeDb();
  });

  it(
    "counts exactly per outcome, key and route across a minute boundary, after the rollup",
    { timeout: 180_000 },
    async () => {
      const [first = "", second = ""] = APPS;
      const before = await traffic(first, "a");
      const boundary = Math.ceil(Date.now() / 60_000) * 60_000;
      await sleep(boundary - Date.now() + 500);
      const after = await traffic(second, "a");
      expect([...before, ...after].map((r) => r.allowed)).toEqual([
        true,
        true,
        true,
        true,
        true,
        true,
        false,
        false,
        true,
        true,
      ]);

      // wait for the rollup (any server's) to pass the second minute
      const watermark = jobKeys("").minutes;
      for (let i = 0; i < 90 && Number(await redis().get(watermark)) <= boundary / 60_000; i++)
        await sleep(1_000);
      expect(Number(await redis().get(watermark))).toBeGreaterThan(boundary / 60_000);

      const tenant = await db().tenant.findUniqueOrThrow({ where: { slug } });
      const rows = await storedRows("minute", [tenant.id]);
      expect(rows.reduce((s, r) => s + Number(r.allowed) + Number(r.rejected), 0)).toBe(10);

      const series = await queryUsage(SYSTEM, {
        tenant: slug,
        fromMs: boundary - 120_000,
        toMs: boundary + 120_000,
        stepMs: 60_000,
      });
      const counts = series.points
        .filter((p) => p.allowed + p.rejected > 0)
        .map((p) => [Date.parse(p.t), p.allowed, p.rejected]);
      expect(counts).toEqual([
        [boundary - 60_000, 5, 0],
        [boundary, 3, 2],
      ]);
      // a route that was sent but matches no pattern is told apart from none
      await check(first, { key: "b", route: "GET /v1/nowhere" });
      await check(first, { key: "b" });
      // the usage page, as it renders (once the recorder's flush took the two): breakdowns by
      // key and by route
      let page = await dashboardData(SYSTEM, { tenant: slug, range: "1h" });
      await waitFor(async () => {
        page = await dashboardData(SYSTEM, { tenant: slug, range: "1h" });
        const routes = page.byRoute.map((r) => r.name);
        return routes.includes("(unmatched route)") && routes.includes("(no route)");
      }, "the recorder's flush");
      expect(page.breakdown.rows.map((r) => [r.name, r.allowed, r.rejected])).toEqual([
        ["a", 4, 2],
        ["b", 6, 0],
      ]);
      expect(page.byRoute.map((r) => [r.name, r.allowed, r.rejected])).toEqual([
        ["GET /v1/hot/:id", 4, 2],
        ["GET /v1/free", 4, 0],
        ["(no route)", 1, 0],
        ["(unmatched route)", 1, 0],
      ]);
      // narrowed to the hot route, its limit is drawn over the traffic: 4 per hour at 15 s steps
      const hot = await dashboardData(SYSTEM, { tenant: slug, route: "GET /v1/hot/:id", range: "1h" });
      expect(hot.limitLines).toContainEqual({
        limit: "hot",
        perStep: (4 * 15_000) / 3_600_000,
        limitValue: 4,
        windowMs: 3_600_000,
      });
      expect(page.limitLines).toEqual([]);
    },
  );
});
