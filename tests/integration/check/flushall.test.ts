import { describe, expect, it } from "vitest";
import { configKeys } from "@/lib/shared/redis/redis-keys";
import { AppProcess } from "./processes";
import { ownRedisAndApp } from "./own-stores";
import { FREE_PLAN_OFF, unique } from "./setup";
import { decide, sleep, waitForVersion } from "./http";

// FLUSHALL on a throwaway Redis with its own app: the config is back in Redis (republished
// from PostgreSQL by one server) and checks are correct within 5 s.

const slug = unique("flush");
const keys = configKeys(process.env.REDIS_PREFIX ?? "");

const own = ownRedisAndApp([
  {
    slug,
    plan: "free",
    limits: [
      ...FREE_PLAN_OFF,
      { name: "two", by: "tenant", algorithm: "fixed_window", limit: 2, window: "1h" },
    ],
  },
]);

describe("FLUSHALL", () => {
  it("republishes the config within 5 s and checks stay correct", async () => {
    const client = own.redis.client();
    try {
      const url = own.app.url;
      await decide({ tenant: slug }, { url });
      await decide({ tenant: slug }, { url });
      expect(await decide({ tenant: slug }, { url })).toMatchObject({
        allowed: false,
        reason: "rate_limited",
      });
      expect(Number(await client.get(keys.version))).toBeGreaterThanOrEqual(own.version);

      await client.flushall();
      const started = performance.now();
      let back = -1;
      while (performance.now() - started < 5_000) {
        const [v, epoch] = await Promise.all([client.get(keys.version), client.get(keys.epoch)]);
        if (v !== null && epoch !== null) {
          back = performance.now() - started;
          break;
        }
        await sleep(50);
      }
      expect(back).toBeGreaterThanOrEqual(0);
      expect(back).toBeLessThan(5_000);
      expect(Number(await client.get(keys.version))).toBeGreaterThanOrEqual(own.version);

      // the counters went with the flush; the limit itself is still enforced
      expect(await decide({ tenant: slug }, { url })).toMatchObject({
        allowed: true,
        remaining: 1,
        limit: 2,
        degraded: false,
      });
      await decide({ tenant: slug }, { url });
      expect(await decide({ tenant: slug }, { url })).toMatchObject({
        allowed: false,
        reason: "rate_limited",
      });
    } finally {
      client.disconnect();
    }
  });

  it("a server started on the flushed Redis gets the config too", async () => {
    const client = own.redis.client();
    try {
      await client.flushall();
    } finally {
      client.disconnect();
    }
    await own.app.stop();
    own.app = new AppProcess(own.app.port, { REDIS_URL: own.redis.url });
    await own.app.start();
    await waitForVersion(own.version, own.app.url, 5_000);
    expect(await decide({ tenant: slug }, { url: own.app.url })).toMatchObject({ allowed: true, limit: 2 });
  }, 60_000);
});
