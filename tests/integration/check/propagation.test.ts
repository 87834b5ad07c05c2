import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeApiKey } from "@/lib/control/data/api-keys";
import { closeClients, FREE_PLAN_OFF, importDoc, setupTenants, tester, unique } from "./setup";
import { APP_URL, APP_URL_2, decide, sleep, waitForVersion, type Decision } from "./http";

// A configuration change reaches every running server within 1 s (pub/sub, with the version
// poll behind it), and counters belong to a limit's identity, not its value. A change to one
// tenant leaves another's answers as they were (its cached checks are kept: check-service.ts).

const slug = unique("prop");
const bystander = unique("prop-other");
let keys: Record<string, string> = {};

const bystanderDoc = {
  slug: bystander,
  name: bystander,
  plan: "free",
  status: "active" as const,
  limits: [
    ...FREE_PLAN_OFF,
    { name: "many", by: "tenant" as const, algorithm: "fixed_window" as const, limit: 100, window: "1h" },
  ],
  routes: [],
  keys: [],
};

const tenantDoc = (limit: number) => ({
  slug,
  name: slug,
  plan: "free",
  status: "active" as const,
  limits: [
    ...FREE_PLAN_OFF,
    { name: "few", by: "tenant" as const, algorithm: "fixed_window" as const, limit, window: "1h" },
  ],
  routes: [],
  keys: [],
});

beforeAll(async () => {
  const setup = await setupTenants([tenantDoc(2), bystanderDoc], {
    keysWithoutLimits: [
      { tenant: slug, name: "k" },
      { tenant: bystander, name: "b" },
    ],
  });
  keys = setup.keys;
  await waitForVersion(setup.version);
  await waitForVersion(setup.version, APP_URL_2);
});

afterAll(closeClients);

/** Polls until `accept` holds for the app's answer; returns the ms it took. */
async function until(
  url: string,
  body: unknown,
  accept: (d: Decision) => boolean,
  started: number,
): Promise<number> {
  for (;;) {
    const decision = await decide(body, { url });
    if (accept(decision)) return performance.now() - started;
    if (performance.now() - started > 5_000) throw new Error(`${url}: not enforced after 5 s`);
    await sleep(10);
  }
}

describe("config propagation", () => {
  it("a raised limit is enforced by both app processes within 1 s, keeping the units used", async () => {
    await decide({ tenant: slug });
    await decide({ tenant: slug });
    for (const url of [APP_URL, APP_URL_2]) {
      expect(await decide({ tenant: slug, dryRun: true }, { url })).toMatchObject({ reason: "rate_limited" });
    }
    // Timed from the moment the change is committed and published (the import returns).
    const version = await importDoc({ tenants: [tenantDoc(5)] });
    const started = performance.now();
    const probe = { tenant: slug, dryRun: true };
    const [first, second] = await Promise.all(
      [APP_URL, APP_URL_2].map((url) =>
        until(url, probe, (d) => d.allowed && d.configVersion >= version, started),
      ),
    );
    expect(first).toBeLessThan(1_000);
    expect(second).toBeLessThan(1_000);
    // identity, not value: the two units already used still count against the new limit
    const after = await decide({ tenant: slug });
    expect(after).toMatchObject({ allowed: true, limit: 5, remaining: 2 });
  });

  it("a lowered limit denies within 1 s on both", async () => {
    await importDoc({ tenants: [tenantDoc(3)] });
    const started = performance.now();
    const probe = { tenant: slug, dryRun: true };
    for (const ms of await Promise.all(
      [APP_URL, APP_URL_2].map((url) => until(url, probe, (d) => !d.allowed && d.limit === 3, started)),
    )) {
      expect(ms).toBeLessThan(1_000);
    }
  });

  it("a revoked key answers revoked_key within 1 s on both", async () => {
    const body = { apiKey: keys[`${slug}/k`], dryRun: true };
    expect(await decide(body)).toMatchObject({ reason: "rate_limited" });
    await revokeApiKey(tester, slug, "k");
    const started = performance.now();
    for (const ms of await Promise.all(
      [APP_URL, APP_URL_2].map((url) => until(url, body, (d) => d.reason === "revoked_key", started)),
    )) {
      expect(ms).toBeLessThan(1_000);
    }
  });

  it("leaves another tenant's answers as they were, counting on, while the changed one is enforced", async () => {
    const probes = [{ apiKey: keys[`${bystander}/b`] }, { tenant: bystander }];
    // seen twice on each app: the whole checks are cached there
    let used = 0;
    for (const url of [APP_URL, APP_URL_2])
      for (const body of [...probes, ...probes]) {
        used += 1;
        expect(await decide(body, { url })).toMatchObject({
          allowed: true,
          limit: 100,
          remaining: 100 - used,
        });
      }
    const version = await importDoc({ tenants: [tenantDoc(6)] });
    const started = performance.now();
    const probe = { tenant: slug, dryRun: true };
    await Promise.all(
      [APP_URL, APP_URL_2].map((url) =>
        until(url, probe, (d) => d.limit === 6 && d.configVersion >= version, started),
      ),
    );
    for (const url of [APP_URL, APP_URL_2])
      for (const body of probes) {
        used += 1;
        const d = await decide(body, { url });
        expect(d).toMatchObject({ allowed: true, limit: 100, remaining: 100 - used });
        expect(d.configVersion).toBeGreaterThanOrEqual(version);
      }
  });
});
