import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configKeys } from "@/lib/shared/redis-keys";
import { AppProcess, freePort, ThrowawayRedis } from "./processes";
import { closeClients, FREE_PLAN_OFF, setupTenants, unique } from "./setup";
import { decide, sleep, waitForVersion } from "./http";

// FLUSHALL on a throwaway Redis with its own app: the config is back in Redis (republished
// from PostgreSQL by one server) and checks are correct within 5 s.

const slug = unique("flush");
let redis: ThrowawayRedis;
let app: AppProcess;
let version = 0;
const keys = configKeys(process.env.REDIS_PREFIX ?? "");

beforeAll(async () => {
  const setup = await setupTenants([
    {
      slug,
      plan: "free",
      limits: [
        ...FREE_PLAN_OFF,
        { name: "two", by: "tenant", algorithm: "fixed_window", limit: 2, window: "1h" },
      ],
    },
  ]);
  version = setup.version;
  redis = new ThrowawayRedis(await freePort());
  await redis.start();
  app = new AppProcess(await freePort(), { REDIS_URL: redis.url });
  await app.start();
  await waitForVersion(version, app.url, 10_000);
}, 90_000);

afterAll(async () => {
  await app?.stop();
  await redis?.kill();
  await closeClients();
});

describe("FLUSHALL", () => {
  it("republishes the config within 5 s and checks stay correct", async () => {
    const client = redis.client();
    try {
      const url = app.url;
      await decide({ tenant: slug }, { url });
      await decide({ tenant: slug }, { url });
      expect(await decide({ tenant: slug }, { url })).toMatchObject({
        allowed: false,
        reason: "rate_limited",
      });
      expect(Number(await client.get(keys.version))).toBeGreaterThanOrEqual(version);

      await client.flushall();
      const started = performance.now();
      let back = -1;
      while (performance.now() - started < 5_000) {
        const [v, snapshot] = await Promise.all([client.get(keys.version), client.get(keys.snapshot)]);
        if (v !== null && snapshot !== null) {
          back = performance.now() - started;
          break;
        }
        await sleep(50);
      }
      expect(back).toBeGreaterThanOrEqual(0);
      expect(back).toBeLessThan(5_000);
      expect(Number(await client.get(keys.version))).toBeGreaterThanOrEqual(version);

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
    const client = redis.client();
    try {
      await client.flushall();
    } finally {
      client.disconnect();
    }
    await app.stop();
    app = new AppProcess(app.port, { REDIS_URL: redis.url });
    await app.start();
    await waitForVersion(version, app.url, 5_000);
    expect(await decide({ tenant: slug }, { url: app.url })).toMatchObject({ allowed: true, limit: 2 });
  }, 60_000);
});
