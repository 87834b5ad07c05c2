import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { exportConfig } from "@/lib/control/data/export-config";
import { counterState } from "@/lib/control/data/counters";
import { closeClients, FREE_PLAN_OFF, setupTenants, tester, unique } from "./setup";
import { APP_URL, APP_URL_2, decide, waitForVersion, type Decision } from "./http";
import { waitFor } from "../../wait-for";

// Local limits (consistency: local) across the two running app processes: each decides in
// memory and syncs with Redis every syncEvery; hammered round-robin through both, the
// admitted count lands between the limit and the limit plus about (N - 1) x rate x I.
// Mixed checks keep exact limits exact and all-or-nothing.

const SYNC_MS = 100;
const LIMIT = 100;
const local = (name: string, algorithm: string, limit: number) => ({
  name,
  by: "tenant" as const,
  algorithm: algorithm as "fixed_window",
  limit,
  window: "1h",
  consistency: "local" as const,
  syncEvery: `${SYNC_MS}ms`,
});

const fixed = unique("loc-fw");
const sliding = unique("loc-sw");
const bucket = unique("loc-tb");
const mixed = unique("loc-mix");
const localDenies = unique("loc-deny");

beforeAll(async () => {
  const setup = await setupTenants([
    { slug: fixed, plan: "free", limits: [...FREE_PLAN_OFF, local("all", "fixed_window", LIMIT)] },
    { slug: sliding, plan: "free", limits: [...FREE_PLAN_OFF, local("all", "sliding_window", LIMIT)] },
    { slug: bucket, plan: "free", limits: [...FREE_PLAN_OFF, local("all", "token_bucket", LIMIT)] },
    {
      slug: mixed,
      plan: "free",
      limits: [
        ...FREE_PLAN_OFF,
        local("big", "fixed_window", 1_000),
        { name: "small", by: "tenant", algorithm: "fixed_window", limit: 3, window: "1h" },
      ],
    },
    {
      slug: localDenies,
      plan: "free",
      limits: [
        ...FREE_PLAN_OFF,
        local("tiny", "fixed_window", 2),
        { name: "roomy", by: "tenant", algorithm: "fixed_window", limit: 100, window: "1h" },
      ],
    },
  ]);
  await waitForVersion(setup.version);
  await waitForVersion(setup.version, APP_URL_2);
}, 30_000);

afterAll(closeClients);

/** `total` checks, alternating between the two apps, `parallel` at a time. */
async function hammer(
  tenant: string,
  total: number,
  parallel: number,
): Promise<{ admitted: number; ms: number }> {
  let next = 0;
  let admitted = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < total) {
      const url = next++ % 2 === 0 ? APP_URL : APP_URL_2;
      const decision = await decide({ tenant }, { url });
      expect(decision.degraded).toBe(false);
      if (decision.allowed) admitted++;
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return { admitted, ms: performance.now() - started };
}

describe("local limits across two app processes", () => {
  for (const [name, tenant] of [
    ["fixed_window", fixed],
    ["sliding_window", sliding],
    ["token_bucket", bucket],
  ] as const) {
    it(`${name}: admits about the limit through both, within (N - 1) x rate x I, then converges`, async () => {
      const total = 4 * LIMIT;
      const { admitted, ms } = await hammer(tenant, total, 8);
      const rate = total / (ms / 1000);
      const bound = Math.ceil((2 - 1) * rate * (SYNC_MS / 1000));
      console.log(
        `[local ${name}] admitted ${admitted} of ${total} checks against limit ${LIMIT} ` +
          `(over by ${admitted - LIMIT}); rate ${Math.round(rate)}/s, bound (N-1) x rate x I = ${bound}`,
      );
      expect(admitted).toBeGreaterThanOrEqual(LIMIT);
      // the bound is "about": a loaded machine delays the sync timers as well
      expect(admitted).toBeLessThanOrEqual(LIMIT + 2 * bound + 10);
      // once the syncs converge, both servers see the limit spent
      const denied = async (url: string) => !(await decide({ tenant, dryRun: true }, { url })).allowed;
      await waitFor(
        async () => (await denied(APP_URL)) && (await denied(APP_URL_2)),
        "both servers to deny after the sync",
        10_000,
        SYNC_MS,
      );
    });
  }
});

describe("checks with local and exact limits", () => {
  it("exact limits stay exact, and local limits count only admitted checks", async () => {
    const answers: Decision[] = [];
    for (let i = 0; i < 5; i++) answers.push(await decide({ tenant: mixed }));
    expect(answers.map((a) => a.allowed)).toEqual([true, true, true, false, false]);
    const last = answers[4] as Decision;
    expect(last).toMatchObject({ reason: "rate_limited", limit: 3, degraded: false });
    expect(last.limits.find((l) => l.name === "big")).toMatchObject({ allowed: true, remaining: 997 });
    expect(last.limits.find((l) => l.name === "small")).toMatchObject({ allowed: false, remaining: 0 });
  });

  it("a check a local limit denies consumes no exact limit", async () => {
    const answers: Decision[] = [];
    for (let i = 0; i < 4; i++) answers.push(await decide({ tenant: localDenies }));
    expect(answers.map((a) => a.allowed)).toEqual([true, true, false, false]);
    // roomy reports what it would leave (the call was a dry run): 100 - 2 - 1 both times
    for (const denied of answers.slice(2)) {
      expect(denied.limits.find((l) => l.name === "roomy")).toMatchObject({ allowed: true, remaining: 97 });
      expect(denied.limits.find((l) => l.name === "tiny")).toMatchObject({ allowed: false });
    }
  });

  it("the converged counts are in Redis under the tenant's hash tag", async () => {
    const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:63809");
    try {
      const counts = async (): Promise<(string | null)[]> => {
        const keys = await redis.keys("*:lc1");
        const mine = keys.filter((key) => key.startsWith("{t:") && key.includes("t%3Abig"));
        return Promise.all(mine.map((key) => redis.hget(key, "b")));
      };
      await waitFor(async () => (await counts()).includes("3"), "the synced count", 10_000, SYNC_MS);
      expect(await counts()).toContain("3");
    } finally {
      redis.disconnect();
    }
  });

  it("the admin state of a local limit is its converged count", async () => {
    const state = await counterState(tester, { tenant: mixed });
    expect(state.limits.find((l) => l.name === "big")).toMatchObject({ remaining: 997, wouldAllow: true });
    expect(state.limits.find((l) => l.name === "small")).toMatchObject({ remaining: 0, wouldAllow: false });
  });
});

describe("local limits in the configuration", () => {
  it("export writes consistency and syncEvery back as they were imported", async () => {
    const document = await exportConfig(tester);
    const tenant = document.tenants?.find((t) => t.slug === fixed);
    expect(tenant?.limits.find((l) => l.name === "all")).toMatchObject({
      consistency: "local",
      syncEvery: "100ms",
    });
  });
});
