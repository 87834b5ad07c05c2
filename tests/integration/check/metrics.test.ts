import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { closeClients, FREE_PLAN_OFF, setupTenants, unique } from "./setup";
import { APP_URL, decide, waitForVersion } from "./http";

// GET /api/metrics: Prometheus text with checks by outcome and reason, latency, degraded
// decisions by cause, event-loop delay, the config version and local cache hits; never a per-key or per-tenant label,
// except the per-tenant Redis memory gauge.

const slug = unique("met");
let keys: Record<string, string> = {};
let version = 0;

async function metrics(): Promise<{ text: string; value: (line: string) => number; type: string | null }> {
  const response = await fetch(`${APP_URL}/api/metrics`);
  const text = await response.text();
  const value = (series: string): number => {
    const line = text.split("\n").find((l) => l.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  };
  return { text, value, type: response.headers.get("content-type") };
}

beforeAll(async () => {
  const setup = await setupTenants([
    {
      slug,
      plan: "free",
      limits: [
        ...FREE_PLAN_OFF,
        { name: "one", by: "key", algorithm: "fixed_window", limit: 1, window: "1h" },
      ],
      keys: [{ name: "k", limits: [] }],
    },
  ]);
  keys = setup.keys;
  version = setup.version;
  await waitForVersion(version);
});

afterAll(closeClients);

describe("metrics", () => {
  it("is Prometheus text with the expected families", async () => {
    const { text, type, value } = await metrics();
    expect(type).toContain("text/plain");
    for (const family of [
      "sluice_checks_total",
      "sluice_check_duration_seconds",
      "sluice_degraded_decisions_total",
      "sluice_config_version",
      "sluice_cache_hits_total",
    ]) {
      expect(text).toContain(`# TYPE ${family} `);
    }
    expect(value("sluice_config_version")).toBeGreaterThanOrEqual(version);
    // this process's own stalls, told apart from Redis' failures
    expect(text).toContain("# TYPE sluice_event_loop_delay_seconds gauge");
    for (const quantile of ["0.5", "0.99", "1"]) {
      expect(text).toMatch(
        new RegExp(`^sluice_event_loop_delay_seconds\\{quantile="${quantile}"\\} [0-9.e+-]+$`, "m"),
      );
    }
    for (const cause of [
      "redis_timeout",
      "connection_lost",
      "breaker_open",
      "local_overload",
      "limiter_error",
    ]) {
      expect(text).toContain(`sluice_degraded_decisions_total{allowed="false",cause="${cause}"} `);
    }
    expect(text).toContain('sluice_store_failures_total{kind="local_overload"} ');
    expect(text).toMatch(/^sluice_check_duration_seconds_bucket\{le="\+Inf"\} \d+$/m);
    // the usage recorder's health (tests/integration/usage/flush-retry.test.ts moves them)
    expect(text).toContain("# TYPE sluice_usage_dropped_decisions_total counter");
    expect(text).toContain("# TYPE sluice_usage_flush_retries_total counter");
    expect(text).toContain("# TYPE sluice_usage_pending_decisions gauge");
  });

  it("counts decisions by outcome and reason", async () => {
    const series = 'sluice_checks_total{outcome="rejected",reason="unknown_tenant"}';
    const before = (await metrics()).value(series);
    await decide({ tenant: unique("nobody") });
    await decide({ tenant: unique("nobody") });
    expect((await metrics()).value(series)).toBe(before + 2);
  });

  it("counts negative cache hits: a repeated unknown key is answered from memory", async () => {
    const series = 'sluice_cache_hits_total{cache="negative"}';
    const before = (await metrics()).value(series);
    const apiKey = `sk_${randomBytes(12).toString("hex")}`;
    for (let i = 0; i < 3; i++) expect(await decide({ apiKey })).toMatchObject({ reason: "unknown_key" });
    expect((await metrics()).value(series)).toBe(before + 2);
  });

  it("counts deny cache hits: a key over its limit is answered from memory, still exactly", async () => {
    const series = 'sluice_cache_hits_total{cache="deny"}';
    const apiKey = keys[`${slug}/k`];
    expect(await decide({ apiKey })).toMatchObject({ allowed: true });
    const first = await decide({ apiKey });
    expect(first).toMatchObject({ allowed: false, reason: "rate_limited" });
    const before = (await metrics()).value(series);
    const cached = await decide({ apiKey });
    expect(cached).toMatchObject({ allowed: false, reason: "rate_limited", limit: 1, remaining: 0 });
    expect(cached.retryAfterMs).toBeGreaterThan(0);
    expect(cached.retryAfterMs).toBeLessThanOrEqual(first.retryAfterMs ?? 0);
    expect(await decide({ apiKey, cost: 5 })).toMatchObject({ reason: "cost_exceeds_capacity" });
    expect((await metrics()).value(series)).toBe(before + 1);
  });

  it("has no per-key, per-tenant or per-subject label (but the per-tenant memory gauge)", async () => {
    // sluice_tenant_redis_bytes{tenant} is per tenant by design: tenants are an operator's, few.
    const text = (await metrics()).text
      .split("\n")
      .filter((line) => !line.startsWith("sluice_tenant_redis_bytes{"))
      .join("\n");
    expect(text).not.toContain(slug);
    expect(text).not.toMatch(/\{[^}]*(tenant|key|subject|route)=/);
  });
});
