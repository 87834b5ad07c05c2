import { describe, expect, it } from "vitest";
import { ownRedisAndApp } from "./own-stores";
import { FREE_PLAN_OFF, unique } from "./setup";
import { decide, sleep, type Decision } from "./http";
import { waitFor } from "../../wait-for";

// A local limit while Redis is away, on a throwaway Redis with its own app process: checks
// keep being decided from memory (never degraded, still denying past the limit), and the
// counts made meanwhile reach Redis once it is back.

const slug = unique("loc-down");

const own = ownRedisAndApp([
  {
    slug,
    plan: "free",
    limits: [
      ...FREE_PLAN_OFF,
      {
        name: "all",
        by: "tenant",
        algorithm: "fixed_window",
        limit: 20,
        window: "1h",
        consistency: "local",
        syncEvery: "50ms",
      },
    ],
  },
]);

async function converged(): Promise<string | null> {
  const client = own.redis.client();
  try {
    const keys = await client.keys("*:lc1");
    return keys.length === 1 ? await client.hget(keys[0] as string, "b") : null;
  } finally {
    client.disconnect();
  }
}

async function checks(n: number): Promise<Decision[]> {
  const answers: Decision[] = [];
  for (let i = 0; i < n; i++) answers.push(await decide({ tenant: slug }, { url: own.app.url }));
  return answers;
}

describe("a local limit while Redis is down", () => {
  it("keeps deciding from memory and reconciles when Redis returns", async () => {
    expect((await checks(5)).every((d) => d.allowed && !d.degraded)).toBe(true);
    await waitFor(async () => (await converged()) === "5", "the first sync of the five checks");

    await own.redis.kill();
    const during = await checks(20);
    expect(during.some((d) => d.degraded)).toBe(false);
    expect(during.filter((d) => d.allowed)).toHaveLength(15);
    expect(during.at(-1)).toMatchObject({ allowed: false, reason: "rate_limited", remaining: 0 });

    // back empty (no persistence): what the server counted while it was away is pushed
    await own.redis.start();
    let seen: string | null = null;
    for (let i = 0; i < 100 && seen !== "15"; i++) {
      await sleep(100);
      seen = await converged().catch(() => null);
    }
    expect(seen).toBe("15");
  }, 60_000);
});
