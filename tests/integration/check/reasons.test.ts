import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseList } from "structured-headers";
import { createApiKey, revokeApiKey } from "@/lib/control/data/api-keys";
import { closeClients, FREE_PLAN_OFF, setupTenants, tester, unique } from "./setup";
import { check, decide, waitForVersion, APP_URL_2 } from "./http";
import { waitFor } from "../../wait-for";

// Every reason code of docs/api.md over HTTP (store_unavailable: redis-outage.test.ts), with the
// RateLimit header fields parsed by a structured-fields parser.

const slug = unique("rsn");
const suspended = unique("rsn-off");
let keys: Record<string, string> = {};

beforeAll(async () => {
  const past = new Date(Date.now() - 60_000).toISOString();
  const setup = await setupTenants(
    [
      {
        slug,
        plan: "free",
        limits: [
          ...FREE_PLAN_OFF,
          { name: "per-key", by: "key", algorithm: "fixed_window", limit: 3, window: "1h" },
          { name: "per-tenant", by: "tenant", algorithm: "sliding_log", limit: 1000, window: "1m" },
          { name: "watch", by: "tenant", algorithm: "token_bucket", limit: 1, window: "1h", mode: "shadow" },
        ],
        keys: [{ name: "main", limits: [] }],
      },
      { slug: suspended, plan: "free", status: "suspended", keys: [{ name: "k", limits: [] }] },
    ],
    {
      keysWithoutLimits: [
        { tenant: slug, name: "gone" },
        { tenant: slug, name: "old", expiresAt: past },
      ],
    },
  );
  keys = setup.keys;
  await revokeApiKey(tester, slug, "gone");
  await waitForVersion(setup.version + 1);
  await waitForVersion(setup.version + 1, APP_URL_2);
});

afterAll(closeClients);

describe("reason codes", () => {
  it("ok: allowed, with the deciding limit and every limit reported", async () => {
    const answer = await check({ apiKey: keys[`${slug}/main`], route: "GET /v1/anything" });
    expect(answer.status).toBe(200);
    const body = answer.body;
    expect(body).toMatchObject({ allowed: true, reason: "ok", tenant: slug, key: "main", route: null });
    expect(body).toMatchObject({ limit: 3, remaining: 2, retryAfterMs: null, waitMs: 0, degraded: false });
    expect(body.limits.map((l) => [l.name, l.by, l.algorithm, l.mode, l.allowed])).toEqual([
      ["per-key", "key", "fixed_window", "enforce", true],
      ["per-tenant", "tenant", "sliding_log", "enforce", true],
      ["watch", "tenant", "token_bucket", "shadow", true],
    ]);
    expect(body.limits[0]).toMatchObject({ level: "tenant", limit: 3, windowMs: 3_600_000, remaining: 2 });
    expect(body.configVersion).toBeGreaterThan(0);
  });

  it("RateLimit-Policy and RateLimit: one item per enforce limit, matching the body", async () => {
    const answer = await check({ tenant: slug, key: "main" });
    const policy = parseList(answer.headers.get("ratelimit-policy") ?? "");
    const state = parseList(answer.headers.get("ratelimit") ?? "");
    expect(policy.map(([name, params]) => [name, Object.fromEntries(params)])).toEqual([
      ["per-key", { q: 3, w: 3600 }],
      ["per-tenant", { q: 1000, w: 60 }],
    ]);
    const byName = new Map(answer.body.limits.map((l) => [l.name, l]));
    for (const [name, params] of state) {
      const limit = byName.get(String(name));
      expect(params.get("r")).toBe(limit?.remaining);
      expect(params.get("t")).toBe(Math.ceil((limit?.resetMs ?? 0) / 1000));
    }
    expect(state.map(([name]) => name)).toEqual(["per-key", "per-tenant"]);
    expect(answer.headers.get("retry-after")).toBeNull();
  });

  it("rate_limited: denied with the retry time, Retry-After in whole seconds", async () => {
    const allowed = await decide({ apiKey: keys[`${slug}/main`] });
    expect(allowed).toMatchObject({ allowed: true, remaining: 0 });
    const answer = await check({ apiKey: keys[`${slug}/main`] });
    expect(answer.body).toMatchObject({ allowed: false, reason: "rate_limited", limit: 3, remaining: 0 });
    expect(answer.body.retryAfterMs).toBeGreaterThan(0);
    expect(answer.headers.get("retry-after")).toBe(String(Math.ceil((answer.body.retryAfterMs ?? 0) / 1000)));
    expect(answer.body.limits.find((l) => l.name === "per-key")?.allowed).toBe(false);
    // the same key named by tenant/key shares the counter
    expect(await decide({ tenant: slug, key: "main" })).toMatchObject({ reason: "rate_limited" });
  });

  it("cost_exceeds_capacity: no retry time, no Retry-After", async () => {
    const answer = await check({ tenant: slug, key: "main", cost: 4 });
    expect(answer.body).toMatchObject({
      allowed: false,
      reason: "cost_exceeds_capacity",
      retryAfterMs: null,
    });
    expect(answer.headers.get("retry-after")).toBeNull();
  });

  it("unknown_key, by secret and by name", async () => {
    expect(await decide({ apiKey: "sk_nope_0123456789" })).toMatchObject({
      allowed: false,
      reason: "unknown_key",
      tenant: null,
      key: null,
      limits: [],
      limit: null,
      remaining: null,
    });
    expect(await decide({ tenant: slug, key: "nope" })).toMatchObject({
      allowed: false,
      reason: "unknown_key",
      tenant: slug,
    });
  });

  it("revoked_key and expired_key name the tenant and key", async () => {
    expect(await decide({ apiKey: keys[`${slug}/gone`] })).toMatchObject({
      allowed: false,
      reason: "revoked_key",
      tenant: slug,
      key: "gone",
    });
    expect(await decide({ tenant: slug, key: "gone" })).toMatchObject({ reason: "revoked_key" });
    expect(await decide({ apiKey: keys[`${slug}/old`] })).toMatchObject({
      allowed: false,
      reason: "expired_key",
      key: "old",
    });
    expect(await decide({ tenant: slug, key: "old" })).toMatchObject({ reason: "expired_key" });
  });

  it("expired_key as soon as a key expires, though its checks were just answered from the cache", async () => {
    // The key must expire after its first checks were answered, however slow the machine:
    // made at the test's start, and made again with a later expiry when the checks took
    // longer than the lead (their answers then prove nothing).
    for (const [attempt, lead] of [3_000, 8_000, 20_000].entries()) {
      const name = `soon-${attempt}`;
      const expires = Date.now() + lead;
      const created = await createApiKey(tester, slug, { name, expiresAt: new Date(expires).toISOString() });
      const byKey = { apiKey: created.key };
      const byName = { tenant: slug, key: name };
      // known to both apps (a dry run counts nothing)
      for (const url of [undefined, APP_URL_2])
        await waitFor(
          async () => (await decide({ ...byKey, dryRun: true }, { url })).reason !== "unknown_key",
          `key ${name} known to ${url ?? "the first app"}`,
        );
      // three checks: the plan's per-key limit allows three an hour; the second is a cache hit
      const answers = [await decide(byKey), await decide(byKey), await decide(byName)];
      if (Date.now() >= expires - 100) continue;
      for (const answer of answers) expect(answer).toMatchObject({ allowed: true, reason: "ok", key: name });
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, expires - Date.now()) + 50));
      expect(await decide(byKey)).toMatchObject({ allowed: false, reason: "expired_key", key: name });
      expect(await decide(byName)).toMatchObject({ allowed: false, reason: "expired_key", key: name });
      return;
    }
    throw new Error("the machine never answered three checks within 20 s of making a key");
  });

  it("suspended_tenant and unknown_tenant, without counters", async () => {
    expect(await decide({ tenant: suspended })).toMatchObject({
      allowed: false,
      reason: "suspended_tenant",
      tenant: suspended,
      limits: [],
    });
    expect(await decide({ apiKey: keys[`${suspended}/k`] })).toMatchObject({
      reason: "suspended_tenant",
      key: "k",
    });
    const unknown = await check({ tenant: unique("nobody") });
    expect(unknown.body).toMatchObject({ allowed: false, reason: "unknown_tenant", limits: [] });
    expect(unknown.headers.get("ratelimit")).toBeNull();
  });

  it("both app processes decide the same", async () => {
    expect(await decide({ apiKey: keys[`${slug}/main`] }, { url: APP_URL_2 })).toMatchObject({
      reason: "rate_limited",
    });
    expect(await decide({ apiKey: keys[`${slug}/gone`] }, { url: APP_URL_2 })).toMatchObject({
      reason: "revoked_key",
    });
  });
});
