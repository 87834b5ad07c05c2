import { afterAll, beforeAll } from "vitest";
import { AppProcess, freePort, ThrowawayRedis } from "./processes";
import { closeClients, setupTenants, type TenantSpec } from "./setup";
import { waitForVersion } from "./http";

// For the tests that stop, stall or flush Redis: the tenants, a throwaway Redis and an app
// process of the test's own pointed at it (the shared test Redis and apps stay untouched).
// Set up in beforeAll, torn down in afterAll; the fields are there once beforeAll ran.

export interface OwnStores {
  redis: ThrowawayRedis;
  app: AppProcess;
  /** the configuration version that set up the tenants */
  version: number;
}

export function ownRedisAndApp(tenants: TenantSpec[]): OwnStores {
  const own = { version: 0 } as OwnStores;
  beforeAll(async () => {
    const setup = await setupTenants(tenants);
    own.version = setup.version;
    own.redis = new ThrowawayRedis(await freePort());
    await own.redis.start();
    own.app = new AppProcess(await freePort(), { REDIS_URL: own.redis.url });
    await own.app.start();
    // Redis starts empty: the app loads the config from PostgreSQL and republishes it there.
    await waitForVersion(setup.version, own.app.url, 10_000);
  }, 90_000);
  afterAll(async () => {
    await own.app?.stop();
    await own.redis?.kill();
    await closeClients();
  });
  return own;
}
