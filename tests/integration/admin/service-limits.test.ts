// A plan's service limit through the real database: import writes it, export gives it back
// (an export re-imported changes nothing), the compiled snapshot's tenants carry it, and a
// change of only the service limit is a change: a new version with its audit entry.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlanDoc } from "@/lib/control/config/document";
import { exportConfig } from "@/lib/control/data/export-config";
import { setPlanService } from "@/lib/control/data/edits/plans";
import { importConfig } from "@/lib/control/data/import-config";
import { fieldDiff } from "@/components/audit/field-diff";
import { addPlansAndRoutes, closeClients, setupTenants, tester, unique } from "../check/setup";
import { withDatabase } from "./database";

const limited = unique("svc-limited");
const rateOnly = unique("svc-rate-only");
const open = unique("svc-open");
const tenantOf = (plan: string): string => `t-${plan}`;
const planLimit = { name: "rpm", by: "tenant", algorithm: "fixed_window", limit: 100, window: "1m" } as const;

async function exportedPlan(name: string): Promise<PlanDoc | undefined> {
  return (await exportConfig(tester)).plans?.find((plan) => plan.name === name);
}

/** The compiled tenant's `service` as of that config version (its newest tenant part then). */
async function compiledService(version: number, slug: string): Promise<unknown> {
  return withDatabase(async (client) => {
    const row = await client.query<{ service: unknown; present: boolean }>(
      `select compiled::jsonb->'tenant'->'service' as service,
              compiled::jsonb->'tenant' ? 'service' as present
         from "ConfigPart" where scope = 't:' || $2 and version <= $1 and compiled is not null
         order by version desc limit 1`,
      [version, slug],
    );
    if (!row.rows[0]?.present) throw new Error(`version ${version} compiled no service field for ${slug}`);
    return row.rows[0].service;
  });
}

async function latestVersion(): Promise<number> {
  return withDatabase(async (client) => {
    const row = await client.query<{ v: number }>('select max(version) as v from "ConfigVersion"');
    return Number(row.rows[0]?.v ?? 0);
  });
}

beforeAll(async () => {
  await addPlansAndRoutes([
    { name: limited, limits: [planLimit], service: { checksPerSecond: 5000, burst: 10_000 } },
    { name: rateOnly, limits: [], service: { checksPerSecond: 3000 } },
    { name: open, limits: [] },
  ]);
  await setupTenants([limited, rateOnly, open].map((plan) => ({ slug: tenantOf(plan), plan })));
});

afterAll(closeClients);

describe("a plan's service limit in the database", () => {
  it("is exported as imported, the burst filled in, and absent when the plan has none", async () => {
    expect(await exportedPlan(limited)).toMatchObject({ service: { checksPerSecond: 5000, burst: 10_000 } });
    expect(await exportedPlan(rateOnly)).toMatchObject({ service: { checksPerSecond: 3000, burst: 3000 } });
    expect(await exportedPlan(open)).toEqual({ name: open, limits: [] });
  });

  it("round-trips: the export imported again, or the plan without its default burst, changes nothing", async () => {
    expect(await importConfig(tester, await exportConfig(tester))).toEqual({
      configVersion: null,
      changes: [],
      createdKeys: [],
    });
    const plans = ((await exportConfig(tester)).plans ?? []).map((plan) =>
      plan.name === rateOnly ? { ...plan, service: { checksPerSecond: 3000 } } : plan,
    );
    expect(await importConfig(tester, { plans })).toEqual({
      configVersion: null,
      changes: [],
      createdKeys: [],
    });
  });

  it("is compiled into each tenant of the plan, and null for a plan without one", async () => {
    const version = await latestVersion();
    expect(await compiledService(version, tenantOf(limited))).toEqual({
      checksPerSecond: 5000,
      burst: 10_000,
    });
    expect(await compiledService(version, tenantOf(rateOnly))).toEqual({
      checksPerSecond: 3000,
      burst: 3000,
    });
    expect(await compiledService(version, tenantOf(open))).toBeNull();
  });

  it("a change of only the service limit makes a new version and an audit entry naming the field", async () => {
    const result = await setPlanService(tester, limited, { checksPerSecond: 5000, burst: 20_000 });
    expect(result.changes).toEqual([{ action: "update", target: "plan", name: limited }]);
    expect(result.configVersion).not.toBeNull();
    const version = result.configVersion ?? 0;
    const audit = await withDatabase(async (client) => {
      const rows = await client.query<{ before: unknown; after: unknown }>(
        `select before, after from "AuditEntry" where action = 'plan.update' and "targetId" = $1 and "configVersion" = $2`,
        [limited, version],
      );
      return rows.rows;
    });
    expect(audit).toHaveLength(1);
    expect(fieldDiff(audit[0]?.before, audit[0]?.after)).toEqual([
      { path: "service.burst", before: "10000", after: "20000" },
    ]);
    expect(await compiledService(version, tenantOf(limited))).toEqual({
      checksPerSecond: 5000,
      burst: 20_000,
    });
    // its limits stay as they were
    expect((await exportedPlan(limited))?.limits).toEqual([
      expect.objectContaining({ name: "rpm", limit: 100 }),
    ]);
  });

  it("removed, it is gone from the export and compiles to null", async () => {
    const result = await setPlanService(tester, rateOnly, null);
    expect(result.changes).toEqual([{ action: "update", target: "plan", name: rateOnly }]);
    expect(await exportedPlan(rateOnly)).toEqual({ name: rateOnly, limits: [] });
    expect(await compiledService(result.configVersion ?? 0, tenantOf(rateOnly))).toBeNull();
  });

  it("the database refuses values below 1 and a burst without a rate", async () => {
    const refused = async (set: string): Promise<string> =>
      withDatabase(async (client) => {
        try {
          await client.query(`update "Plan" set ${set} where name = $1`, [open]);
          return "accepted";
        } catch (error) {
          return (error as { code?: string }).code ?? "unknown";
        }
      });
    expect(await refused(`"serviceChecksPerSecond" = 0, "serviceBurst" = 1000`)).toBe("23514");
    expect(await refused(`"serviceChecksPerSecond" = 1000, "serviceBurst" = 0`)).toBe("23514");
    expect(await refused(`"serviceBurst" = 1000`)).toBe("23514");
    expect(await exportedPlan(open)).toEqual({ name: open, limits: [] });
  });
});
