// The console's long lists against real PostgreSQL: the tenants list paged, searched,
// filtered and sorted on the server (Traffic from the rollup's per-tenant totals), hostile
// paging and sort parameters, the header search, and a tenant admin never finding another
// tenant's tenants or keys. "Most limited" leaves suspended tenants out.
import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/shared/principal";
import { importConfig } from "@/lib/control/data/import-config";
import { createApiKey } from "@/lib/control/data/api-keys";
import { db } from "@/lib/control/data/db";
import { tenantPage, visibleTrafficTotals } from "@/lib/control/data/queries/tenant-page";
import { searchConsole } from "@/lib/control/data/queries/global-search";
import { limitedTenants } from "@/lib/control/data/usage/scope";
import { writeMinute } from "@/lib/control/data/usage/rollup-writer";
import { refreshTenantTraffic } from "@/lib/control/data/usage/tenant-traffic";
import { parseTenantListQuery } from "@/lib/control/lists/tenant-list-query";
import { anyPlan, makeMember, system } from "./fixtures";

const run = `cl${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
const slugOf = (i: number) => `${run}-${String(i).padStart(2, "0")}`;
const COUNT = 30;
const ids = new Map<string, string>();
let member: Principal;
const operator: Principal = system;
const minute = Math.floor(Date.now() / 60_000) * 60_000 - 3 * 60_000;

// the minute written below, as the overview's stretch planner hands it over
const rolled = [{ table: "minute" as const, from: minute - 60_000, to: minute + 60_000 }];
const query = (params: Record<string, string>) => parseTenantListQuery({ q: run, ...params }).query;

beforeAll(async () => {
  const plan = await anyPlan();
  await importConfig(system, {
    tenants: Array.from({ length: COUNT }, (_, i) => ({
      slug: slugOf(i),
      name: `Console ${String(i).padStart(2, "0")} ${run}`,
      plan,
    })),
  });
  for (const t of await db().tenant.findMany({ where: { slug: { startsWith: run } } })) ids.set(t.slug, t.id);
  await db().tenant.update({ where: { slug: slugOf(3) }, data: { status: "suspended" } });
  for (let i = 0; i < 3; i++) await createApiKey(system, slugOf(5), { name: `${run}-key${i}` });
  await createApiKey(system, slugOf(6), { name: `${run}-other` });
  member = await makeMember(`${run}@admin.test`, ids.get(slugOf(5)) ?? "", "admin");
  // traffic: tenant i gets i * 10 checks in one rolled-up minute, a tenth rejected
  const rows = Array.from({ length: COUNT }, (_, i) => ({
    tenantId: ids.get(slugOf(i)) ?? "",
    keyId: "",
    route: "",
    allowed: i * 9,
    rejected: i,
    shadowRejected: 0,
    degraded: i === 7 ? 2 : 0,
    leasesAcquired: 0,
    leasesReleased: 0,
    leasesExpired: 0,
  }));
  await writeMinute(minute, rows, () => Promise.resolve(true));
  await refreshTenantTraffic(minute + 60_000);
});

describe("the tenants list", () => {
  it("pages on the server, clamping a page past the end to the last", async () => {
    const first = await tenantPage(operator, query({ size: "25" }));
    expect(first).toMatchObject({ total: COUNT, page: 1, pages: 2, size: 25 });
    expect(first.rows.map((r) => r.slug)).toEqual(Array.from({ length: 25 }, (_, i) => slugOf(i)));
    const huge = await tenantPage(operator, query({ size: "25", page: "99999999999999999999" }));
    expect(huge.page).toBe(2);
    expect(huge.rows.map((r) => r.slug)).toEqual([25, 26, 27, 28, 29].map(slugOf));
  });

  it("sorts every column on the server, Traffic from the rollup's totals", async () => {
    const byTraffic = await tenantPage(operator, query({ sort: "traffic", size: "25" }));
    expect(byTraffic.rows[0]).toMatchObject({ slug: slugOf(29), checks: 290, rejected: 29 });
    expect(byTraffic.rows.map((r) => r.checks)).toEqual(
      [...byTraffic.rows.map((r) => r.checks)].sort((a, b) => b - a),
    );
    const ascending = await tenantPage(operator, query({ sort: "traffic", dir: "asc", size: "25" }));
    expect(ascending.rows[0]).toMatchObject({ slug: slugOf(0), checks: 0 });
    const byKeys = await tenantPage(operator, query({ sort: "keys" }));
    expect(byKeys.rows[0]).toMatchObject({ slug: slugOf(5), keys: 3 });
    const byStatus = await tenantPage(operator, query({ sort: "status", dir: "desc" }));
    expect(byStatus.rows[0]).toMatchObject({ slug: slugOf(3), status: "suspended" });
    for (const sort of ["tenant", "plan", "rejected", "role"])
      expect((await tenantPage(operator, query({ sort }))).rows).toHaveLength(COUNT);
  });

  it("searches and filters", async () => {
    const named = await tenantPage(operator, query({ q: `${run}-1` }));
    expect(named.rows.map((r) => r.slug)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19].map(slugOf));
    expect((await tenantPage(operator, query({ status: "suspended" }))).rows.map((r) => r.slug)).toEqual([
      slugOf(3),
    ]);
    // wildcards are taken literally
    expect((await tenantPage(operator, query({ q: "%" }))).total).toBe(0);
    expect((await tenantPage(operator, query({ plan: "no-such-plan" }))).total).toBe(0);
  });

  it("names a bad parameter and uses its default", () => {
    const { query: q, errors } = parseTenantListQuery({
      sort: "password",
      dir: "sideways",
      page: "-3",
      size: "1000000",
      status: "deleted",
      q: "x".repeat(101),
    });
    expect(errors.map((e) => e.field)).toEqual(["sort", "q", "dir", "page", "size", "status"]);
    expect(errors[0]?.message).toMatch(/^sort must be one of tenant, plan, status, traffic/);
    expect(q).toMatchObject({ sort: "tenant", dir: "asc", page: 1, size: 50, q: "" });
    expect(q.status).toBeUndefined();
  });

  it("shows a tenant admin only their tenant, whatever they search or sort", async () => {
    const page = await tenantPage(member, parseTenantListQuery({ sort: "traffic" }).query);
    expect(page.rows.map((r) => r.slug)).toEqual([slugOf(5)]);
    expect(page.rows[0]?.role).toBe("admin");
    expect((await tenantPage(member, query({ q: slugOf(6) }))).total).toBe(0);
    expect(await visibleTrafficTotals(member)).toEqual({ checks: 50, rejected: 5, degraded: 0 });
  });
});

describe("the header search", () => {
  it("finds tenants and keys by name or prefix, exact first", async () => {
    const found = await searchConsole(operator, slugOf(5));
    expect(found.tenants[0]?.slug).toBe(slugOf(5));
    const keys = await searchConsole(operator, `${run}-key1`);
    expect(keys.keys[0]).toMatchObject({ tenant: slugOf(5), name: `${run}-key1`, revoked: false });
    const prefix = keys.keys[0]?.prefix ?? "";
    expect((await searchConsole(operator, prefix)).keys.map((k) => k.name)).toContain(`${run}-key1`);
  });

  it("never shows a tenant admin another tenant's tenants, keys or subjects", async () => {
    const found = await searchConsole(member, run);
    expect(found.tenants.map((t) => t.slug)).toEqual([slugOf(5)]);
    expect(found.keys.every((k) => k.tenant === slugOf(5))).toBe(true);
    expect(found.keys).toHaveLength(3);
    expect(found.subjectTenants).toEqual([slugOf(5)]);
    expect(await searchConsole(member, `${run}-other`)).toMatchObject({ tenants: [], keys: [] });
  });
});

describe("most limited's tenants", () => {
  it("leaves suspended tenants out, and past the cap reads those that rejected most", async () => {
    const mine = (list: Array<{ slug: string }>) => list.map((t) => t.slug).filter((s) => s.startsWith(run));
    const all = await limitedTenants(operator, rolled, 100_000);
    expect(mine(all)).not.toContain(slugOf(3));
    expect(mine(all)).toHaveLength(COUNT - 1);
    const top = await limitedTenants(operator, rolled, 3);
    expect(top).toHaveLength(3);
    // every run's own tenants rejected at most 29 a minute: ours lead unless others rejected more
    const ranked = mine(top);
    expect(ranked).not.toContain(slugOf(3));
    expect(mine(await limitedTenants(member, rolled, 3))).toEqual([slugOf(5)]);
  });
});
