import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb } from "@/lib/control/data/db";
import { closeRedis } from "@/lib/shared/redis/redis";
import { breakdown, toSeries } from "@/lib/usage/read/query";
import { readRows } from "@/lib/usage/read/rows";
import { readCompact, type ScopedRow, type UsageScope } from "@/lib/usage/read/scoped-reader";
import type { Outcome } from "@/lib/usage/types";
import { connect, contextAt, createTenant, recordPattern, SYSTEM, type TestTenant } from "./setup";

// The usage page and GET /api/admin/usage read through readCompact, which sums the series
// and the totals per key and route while it reads, a minute at a time, instead of keeping
// a row per second, key and route (an hour of a busy tenant was more rows than the app
// process's heap holds). It must draw exactly what the rows drew: same series, same
// breakdowns, with and without a key and route, for one tenant and for all of them.

const client = connect();
let a: TestTenant;
let b: TestTenant;
const base = Math.floor(Date.now() / 60_000) * 60_000 - 4 * 60_000;
const now = base + 3 * 60_000 + 30_000;
const ctx = () => contextAt(client, now);
const ROUTES = ["GET /v1/items/:id", "POST /v1/orders", ""];
const OUTCOMES: Outcome[] = ["allowed", "allowed", "rejected", "shadow_rejected", "degraded"];

beforeAll(async () => {
  a = await createTenant("cpa", ["backend", "mobile", "batch"]);
  b = await createTenant("cpb", ["worker"]);
  await client.ping();
  // three minutes, every second: keys, routes and outcomes varying by a fixed pattern
  await recordPattern(client, {
    base,
    seconds: 180,
    perSecond: 7,
    offsetMs: 200,
    flushEvery: 10,
    event: (n) => {
      const [tenant, keys] = n % 5 === 0 ? [b, ["worker"]] : [a, ["backend", "mobile", "batch"]];
      return {
        tenantId: tenant.id,
        keyId: tenant.keys[keys[n % keys.length] as string] ?? null,
        route: ROUTES[(n >> 1) % ROUTES.length] ?? null,
        outcome: OUTCOMES[n % OUTCOMES.length] as Outcome,
        subject: null,
      };
    },
  });
}, 60_000);

afterAll(async () => {
  client.disconnect();
  await closeRedis();
  await closeDb();
});

/** Every row per second, key and route of the tenants read, narrowed: what readers kept before. */
async function allRows(
  tenants: readonly { id: string; slug: string }[],
  scope: UsageScope,
  keyId: string | undefined,
  at = now,
): Promise<ScopedRow[]> {
  const rows: ScopedRow[] = [];
  for (const t of tenants)
    for (const row of await readRows(t.id, scope.from, scope.to, scope.source, contextAt(client, at)))
      if (
        (keyId === undefined || row.keyId === keyId) &&
        (scope.route === undefined || row.route === scope.route)
      )
        rows.push({ ...row, tenant: t.slug });
  return rows;
}

describe("the compact usage read", () => {
  const cases: Array<[string, (tenant: string) => Partial<UsageScope>]> = [
    ["one tenant", (tenant) => ({ tenant })],
    ["one tenant, narrowed to a key", (tenant) => ({ tenant, key: "mobile" })],
    ["one tenant, narrowed to a route", (tenant) => ({ tenant, route: "POST /v1/orders" })],
    ["every tenant", () => ({})],
  ];
  for (const [name, narrow] of cases) {
    it(`draws the same series and breakdowns as the rows: ${name}`, async () => {
      for (const stepMs of [5_000, 15_000]) {
        const scope = { ...narrow(a.slug), from: base, to: base + 180_000, source: "seconds" as const };
        const compact = await readCompact(SYSTEM, { ...scope, stepMs }, ctx());
        const keyId = scope.key === undefined ? undefined : a.keys[scope.key];
        const rows = await allRows(compact.tenants, scope, keyId);
        const names = compact.names;
        expect(rows.length).toBeGreaterThan(0);
        const series = toSeries(compact.series, scope.from, scope.to, stepMs);
        expect(series).toEqual(toSeries(rows, scope.from, scope.to, stepMs));
        expect(series.length).toBe(180_000 / stepMs);
        expect(breakdown(compact.byKey, "key", names)).toEqual(breakdown(rows, "key", names));
        expect(breakdown(compact.byRoute, "route", names)).toEqual(breakdown(rows, "route", names));
        // the totals hold one row per tenant and key, and per tenant and route, not one per second
        const keys = new Set(rows.map((r) => `${r.tenant}|${r.keyId}`));
        const routes = new Set(rows.map((r) => `${r.tenant}|${r.route}`));
        expect([compact.byKey.length, compact.byRoute.length]).toEqual([keys.size, routes.size]);
        expect(compact.byKey.length + compact.byRoute.length).toBeLessThan(rows.length / 10);
      }
    });
  }
});
