import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addPlansAndRoutes, closeClients, setupTenants, unique } from "./setup";
import { decide, waitForVersion, type Decision } from "./http";

// docs/configuration.md's inheritance as the check path resolves it: plan -> tenant -> key overrides,
// global and tenant routes (the most specific pattern of each applies), limits skipped
// without an owner.

const plan = unique("plan");
const base = `/inh-${plan}`;
const one = unique("inh");
const two = unique("inh");
let keys: Record<string, string> = {};

const fixed = (name: string, by: "tenant" | "key" | "subject", limit: number) => ({
  name,
  by,
  algorithm: "fixed_window" as const,
  limit,
  window: "1h",
});
const summary = (d: Decision) => Object.fromEntries(d.limits.map((l) => [l.name, `${l.level}:${l.limit}`]));

beforeAll(async () => {
  await addPlansAndRoutes(
    [
      {
        name: plan,
        limits: [fixed("p-tenant", "tenant", 10), fixed("p-key", "key", 5), fixed("p-sub", "subject", 7)],
      },
    ],
    [
      { pattern: `GET ${base}/items/:id`, limits: [fixed("g-item", "key", 4)] },
      { pattern: `GET ${base}/*`, limits: [fixed("g-rest", "tenant", 9)] },
    ],
  );
  const setup = await setupTenants([
    {
      slug: one,
      plan,
      limits: [{ name: "p-tenant", limit: 20 }, fixed("t-own", "tenant", 30), { name: "g-item", limit: 8 }],
      routes: [{ pattern: `GET ${base}/items/special`, limits: [fixed("t-route", "key", 6)] }],
      keys: [
        {
          name: "k1",
          limits: [
            { name: "p-key", limit: 50 },
            { name: "t-own", disabled: true },
          ],
        },
        { name: "k2", limits: [] },
      ],
    },
    { slug: two, plan, keys: [{ name: "k", limits: [] }] },
  ]);
  keys = setup.keys;
  await waitForVersion(setup.version);
});

afterAll(closeClients);

describe("inheritance and overrides", () => {
  it("a tenant overrides a plan limit field by field and adds its own", async () => {
    const d = await decide({ tenant: one, key: "k2", dryRun: true });
    expect(summary(d)).toEqual({ "p-tenant": "tenant:20", "p-key": "plan:5", "t-own": "tenant:30" });
    const pTenant = d.limits.find((l) => l.name === "p-tenant");
    expect(pTenant).toMatchObject({ by: "tenant", algorithm: "fixed_window", windowMs: 3_600_000 });
  });

  it("a key overrides plan and tenant limits for itself only, and can disable one", async () => {
    const d = await decide({ apiKey: keys[`${one}/k1`], subject: "s", dryRun: true });
    expect(summary(d)).toEqual({ "p-tenant": "tenant:20", "p-key": "key:50", "p-sub": "plan:7" });
  });

  it("without a key, key limits are skipped; without a subject, subject limits", async () => {
    expect(summary(await decide({ tenant: one, dryRun: true }))).toEqual({
      "p-tenant": "tenant:20",
      "t-own": "tenant:30",
    });
    expect(summary(await decide({ tenant: one, subject: "x", dryRun: true }))).toMatchObject({
      "p-sub": "plan:7",
    });
  });

  it("another tenant on the plan gets the plan's values", async () => {
    expect(summary(await decide({ tenant: two, key: "k", dryRun: true }))).toEqual({
      "p-tenant": "plan:10",
      "p-key": "plan:5",
    });
  });
});

describe("routes", () => {
  it("a global route applies to every tenant; a tenant overrides its limit by name", async () => {
    const d1 = await decide({ tenant: one, key: "k2", route: `GET ${base}/items/42?x=1`, dryRun: true });
    expect(d1.route).toBe(`GET ${base}/items/:id`);
    expect(summary(d1)["g-item"]).toBe("tenant:8");
    const d2 = await decide({ tenant: two, key: "k", route: `GET ${base}/items/42`, dryRun: true });
    expect(summary(d2)["g-item"]).toBe("route:4");
  });

  it("the most specific pattern wins within global and within tenant routes; both apply", async () => {
    const special = await decide({
      tenant: one,
      key: "k2",
      route: `GET ${base}/items/special`,
      dryRun: true,
    });
    // the answer names the tenant's pattern; the global GET .../items/:id still applies
    expect(special.route).toBe(`GET ${base}/items/special`);
    expect(summary(special)).toMatchObject({ "t-route": "route:6", "g-item": "tenant:8" });
    expect(summary(special)["g-rest"]).toBeUndefined();
    const rest = await decide({ tenant: one, route: `GET ${base}/other/deep/path`, dryRun: true });
    expect(rest.route).toBe(`GET ${base}/*`);
    expect(summary(rest)["g-rest"]).toBe("route:9");
    // another tenant does not see the first one's route
    const elsewhere = await decide({
      tenant: two,
      key: "k",
      route: `GET ${base}/items/special`,
      dryRun: true,
    });
    expect(elsewhere.route).toBe(`GET ${base}/items/:id`);
    const none = await decide({ tenant: one, route: `POST ${base}/items/1`, dryRun: true });
    expect(none.route).toBeNull();
  });

  it("a per-route limit counts per route pattern: paths resolving to one pattern share it", async () => {
    const a = await decide({ tenant: two, route: `GET ${base}/a/1` });
    const b = await decide({ tenant: two, route: `GET ${base}/b/2` });
    expect(a.limits.find((l) => l.name === "g-rest")?.remaining).toBe(8);
    expect(b.limits.find((l) => l.name === "g-rest")?.remaining).toBe(7);
  });
});
