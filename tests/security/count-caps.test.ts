// Bounded configuration: caps on routes, limits and keys per tenant and on limits in all,
// refused with an error naming the field and the setting, changing nothing. At the DAL
// every path goes through (admin API import, dashboard edits, key creation).
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Read by lib/shared/env.ts on first use, which comes after this line in this file's own modules.
process.env.SLUICE_MAX_KEYS_PER_TENANT = "3";

import { validateDocument, type ConfigDocument } from "@/lib/control/config/document";
import { createApiKey, revokeApiKey } from "@/lib/control/data/api-keys";
import { documentCapErrors, type CountCaps } from "@/lib/control/config/import/count-caps";
import { db } from "@/lib/control/data/db";
import { ConflictError, ValidationFailed } from "@/lib/control/errors/errors";
import { importConfig } from "@/lib/control/data/import-config";

import { anyPlan, system, uniqueSlug } from "../integration/dashboard/fixtures";

let plan = "";
const limit = (name: string) => ({ name, by: "tenant", algorithm: "fixed_window", limit: 10, window: "1m" });

async function refusal(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: unknown) => error,
  );
}

const tenantExists = async (slug: string) =>
  (await db().tenant.findUnique({ where: { slug }, select: { id: true } })) !== null;

beforeAll(async () => {
  plan = await anyPlan();
});

afterAll(() => {
  delete process.env.SLUICE_MAX_KEYS_PER_TENANT;
});

describe("routes and limits per tenant", () => {
  it("a 5,000-route tenant is refused with the cap named, and nothing is created", async () => {
    const slug = uniqueSlug("sec-caps-routes");
    const routes = Array.from({ length: 5000 }, (_, i) => ({ pattern: `GET /r${i}`, limits: [] }));
    const error = await refusal(importConfig(system, { tenants: [{ slug, plan, routes }] }));
    expect(error).toBeInstanceOf(ValidationFailed);
    expect((error as ValidationFailed).errors).toEqual([
      {
        path: "tenants[0].routes",
        message: "5000 routes; a tenant may have at most 200 (SLUICE_MAX_ROUTES_PER_TENANT)",
      },
    ]);
    expect(await tenantExists(slug)).toBe(false);
  });

  it("a tenant with more than 500 limits (own, routes' and keys') is refused", async () => {
    const slug = uniqueSlug("sec-caps-limits");
    const limits = Array.from({ length: 300 }, (_, i) => limit(`own-${i}`));
    const routes = [
      { pattern: "GET /x", limits: Array.from({ length: 201 }, (_, i) => limit(`route-${i}`)) },
    ];
    const error = await refusal(importConfig(system, { tenants: [{ slug, plan, limits, routes }] }));
    expect(error).toBeInstanceOf(ValidationFailed);
    expect((error as ValidationFailed).errors).toContainEqual({
      path: "tenants[0]",
      message: expect.stringMatching(/^501 limits .* at most 500 \(SLUICE_MAX_LIMITS_PER_TENANT\)$/),
    });
    expect(await tenantExists(slug)).toBe(false);
  });

  it("at the cap is accepted", async () => {
    const slug = uniqueSlug("sec-caps-ok");
    const routes = Array.from({ length: 200 }, (_, i) => ({ pattern: `GET /r${i}`, limits: [] }));
    await importConfig(system, { tenants: [{ slug, plan, routes }] });
    expect(await tenantExists(slug)).toBe(true);
  });
});

describe("keys per tenant", () => {
  it("the key past the cap is refused naming the setting; revoked keys count", async () => {
    const slug = uniqueSlug("sec-caps-keys");
    await importConfig(system, { tenants: [{ slug, plan }] });
    for (const name of ["k1", "k2", "k3"]) await createApiKey(system, slug, { name });
    await revokeApiKey(system, slug, "k3");
    const error = await refusal(createApiKey(system, slug, { name: "k4" }));
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as Error).message).toMatch(
      /already has 3 keys .* at most 3 per tenant \(SLUICE_MAX_KEYS_PER_TENANT\)/,
    );
    const count = await db().apiKey.count({ where: { tenant: { slug } } });
    expect(count).toBe(3);
  });
});

describe("limits in all", () => {
  const caps: CountCaps = { routesPerTenant: 10, limitsPerTenant: 10, keysPerTenant: 10, limitsTotal: 5 };
  const tenant = (slug: string, count: number) => ({
    slug,
    plan: "p",
    limits: Array.from({ length: count }, (_, i) => limit(`n${i}`)),
  });
  const plans = [{ name: "p", limits: [limit("a"), limit("b")] }];
  const valid = (input: unknown, context: ConfigDocument = {}): ConfigDocument => {
    const result = validateDocument(input, { plans: context.plans });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result.document;
  };
  const current = valid({
    plans,
    routes: [],
    tenants: [tenant("old", 2)],
  });
  const next = (slug: string, count: number) => valid({ tenants: [tenant(slug, count)] }, current);

  it("counts the state after the import: plans, global routes, listed and unlisted tenants", () => {
    expect(documentCapErrors(next("new", 1), current, false, caps)).toEqual([]);
    expect(documentCapErrors(next("new", 2), current, false, caps)).toEqual([
      {
        path: "",
        message: "the configuration would hold 6 limits; at most 5 in all (SLUICE_MAX_LIMITS_TOTAL)",
      },
    ]);
    // pruning drops the unlisted tenant's limits; replacing a tenant counts its new limits only
    expect(documentCapErrors(next("new", 3), current, true, caps)).toEqual([]);
    expect(documentCapErrors(next("old", 3), current, false, caps)).toEqual([]);
  });
});
