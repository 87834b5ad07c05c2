import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeClients, FREE_PLAN_OFF, setupTenants, unique } from "./setup";
import { APP_URL, APP_URL_2, decide, post, waitForVersion } from "./http";
import { waitFor } from "../../wait-for";

// Penalties (docs/algorithms.md, Penalties) across the two running app processes: a block
// recorded by one server's Lua call is honoured by the other, which learns it from Redis'
// answer and then answers from memory (counted by sluice_cache_hits_total{cache="penalty"},
// with no change to its limiter calls); a counter reset does not lift it; a lift through
// the admin API clears it on both servers within about a second.

const slug = unique("pen");
const HOUR = 3_600_000;

beforeAll(async () => {
  const setup = await setupTenants([
    {
      slug,
      plan: "free",
      limits: [
        ...FREE_PLAN_OFF,
        {
          name: "per-user",
          by: "subject",
          algorithm: "fixed_window",
          limit: 2,
          window: "1h",
          penalty: { block: "1h" },
        },
      ],
    },
  ]);
  await waitForVersion(setup.version);
  await waitForVersion(setup.version, APP_URL_2);
}, 30_000);

afterAll(closeClients);

async function metric(url: string, series: string): Promise<number> {
  const text = await (await fetch(`${url}/api/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}
const PENALTY_HITS = 'sluice_cache_hits_total{cache="penalty"}';

describe("penalties across two servers", () => {
  it("a block recorded by one server is honoured by the other, then answered from memory", async () => {
    const subject = "203.0.113.7";
    expect(await decide({ tenant: slug, subject }, { url: APP_URL })).toMatchObject({ allowed: true });
    expect(await decide({ tenant: slug, subject }, { url: APP_URL })).toMatchObject({ allowed: true });
    const started = await decide({ tenant: slug, subject }, { url: APP_URL });
    expect(started).toMatchObject({ allowed: false, reason: "penalty" });
    expect(started.retryAfterMs).toBeGreaterThan(HOUR - 5_000);
    expect(started.retryAfterMs).toBeLessThanOrEqual(HOUR);

    // server 2 has not seen it: Redis answers (no penalty hit there), and it learns the block
    const hits2 = await metric(APP_URL_2, PENALTY_HITS);
    const learnt = await decide({ tenant: slug, subject }, { url: APP_URL_2 });
    expect(learnt).toMatchObject({ allowed: false, reason: "penalty", degraded: false });
    expect(await metric(APP_URL_2, PENALTY_HITS)).toBe(hits2);
    // now from memory: the block's end as retry time, the blocking limit alone
    for (let i = 0; i < 3; i++) {
      const fromMemory = await decide({ tenant: slug, subject }, { url: APP_URL_2 });
      expect(fromMemory).toMatchObject({ allowed: false, reason: "penalty", remaining: 0 });
      expect(fromMemory.limits.map((l) => l.name)).toEqual(["per-user"]);
      expect(fromMemory.retryAfterMs).toBeLessThanOrEqual(learnt.retryAfterMs ?? 0);
      expect(fromMemory.retryAfterMs).toBeGreaterThan(HOUR - 10_000);
    }
    expect(await metric(APP_URL_2, PENALTY_HITS)).toBe(hits2 + 3);
    // another subject is not blocked
    expect(await decide({ tenant: slug, subject: "203.0.113.8" }, { url: APP_URL_2 })).toMatchObject({
      allowed: true,
    });
    // usage sees rejections with reason penalty
    expect(
      await metric(APP_URL_2, 'sluice_checks_total{outcome="rejected",reason="penalty"}'),
    ).toBeGreaterThanOrEqual(4);
  });

  it("a counter reset keeps the block; a lift clears it on both servers within about a second", async () => {
    const subject = "198.51.100.4";
    for (let i = 0; i < 3; i++) await decide({ tenant: slug, subject }, { url: APP_URL });
    // both servers hold it in memory
    for (const url of [APP_URL, APP_URL_2]) {
      await decide({ tenant: slug, subject }, { url });
      const before = await metric(url, PENALTY_HITS);
      expect(await decide({ tenant: slug, subject }, { url })).toMatchObject({ reason: "penalty" });
      expect(await metric(url, PENALTY_HITS)).toBe(before + 1);
    }
    const reset = await post("/api/admin/reset", { tenant: slug, limit: "per-user", subject });
    expect(reset.status).toBe(200);
    expect(await decide({ tenant: slug, subject }, { url: APP_URL_2 })).toMatchObject({ reason: "penalty" });

    const lift = await post<{ lifted: number }>("/api/admin/penalty/lift", {
      tenant: slug,
      limit: "per-user",
      subject,
    });
    expect(lift.status).toBe(200);
    expect(lift.body.lifted).toBe(1);
    const lifted = performance.now();
    for (const url of [APP_URL, APP_URL_2]) {
      await waitFor(
        async () => (await decide({ tenant: slug, subject, dryRun: true }, { url })).allowed,
        `${url} to forget the block`,
        3_000,
        20,
      );
    }
    expect(performance.now() - lifted).toBeLessThan(1_500);
    expect(await decide({ tenant: slug, subject }, { url: APP_URL_2 })).toMatchObject({ allowed: true });
  });

  it("a lift of a limit without a penalty is refused, naming it", async () => {
    const answer = await post<{ error: { message: string } }>("/api/admin/penalty/lift", {
      tenant: slug,
      limit: "no-such-limit",
    });
    expect(answer.status).toBe(404);
    expect(answer.body.error.message).toContain("no-such-limit");
  });
});
