import { afterAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { CounterStore } from "@/lib/check/local/counter-store";
import { SyncCycle } from "@/lib/check/local/sync-cycle";
import { ioredisScripts } from "@/lib/shared/redis/ioredis-scripts";
import {
  CODE_FIXED_WINDOW,
  CODE_TOKEN_BUCKET,
  type LocalRule,
  type Look,
} from "@/lib/check/limiter/local/local-algorithms";
import type { LocalCounter } from "@/lib/check/limiter/local/local-counter";
import { localSyncScript } from "@/lib/check/limiter/local/sync-script";
import { ThrowawayRedis, freePort } from "../check/processes";
import { connect, RUN, tenantKeys } from "./redis";
import { waitFor } from "../../wait-for";

// lua/local-sync.lua through real Redis (and the Redis Cluster when the suite runs there):
// two "servers" (a counter store and sync cycle each) count the same local limits and
// converge; on a Redis that dies, counting goes on and the increments arrive once it is back.

const redis = connect();
afterAll(() => redis.quit());
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const hour: LocalRule = { code: CODE_FIXED_WINDOW, L: 1_000, W: 3_600_000, B: 1_000 };
const bucket: LocalRule = { code: CODE_TOKEN_BUCKET, L: 1, W: 3_600, B: 1_000 }; // 1000 per hour

function server(client = ioredisScripts(redis, [localSyncScript()])) {
  const store = new CounterStore(1_000);
  return { store, cycle: new SyncCycle(store, [client], 2_000) };
}

function count(counter: LocalCounter, times: number, now: number): void {
  const out: Look = { status: 0, retry: -1, rem0: 0, reset0: 0, rem1: 0, reset1: 0 };
  for (let i = 0; i < times; i++) {
    counter.look(1, now, out);
    if (out.status === 1) counter.consume(1, now);
  }
}

/** Ticks until the cycle has answered `calls` calls. */
async function synced(cycle: SyncCycle, calls: number): Promise<void> {
  for (let i = 0; i < 200 && cycle.calls < calls; i++) {
    cycle.tick();
    await sleep(10);
  }
  expect(cycle.calls).toBeGreaterThanOrEqual(calls);
}

describe("local sync", () => {
  it("two servers' increments converge, in one call per tenant with keys under its hash tag", async () => {
    const tenant = `${RUN}ls`;
    const a = server();
    const b = server();
    const keys = [`{t:${tenant}}:x:one:lc1`, `{t:${tenant}}:x:two:lc4`];
    const [a1, a2] = [a.store.use(keys[0]!, tenant, hour, 10), a.store.use(keys[1]!, tenant, bucket, 10)];
    const [b1, b2] = [b.store.use(keys[0]!, tenant, hour, 10), b.store.use(keys[1]!, tenant, bucket, 10)];
    const now = a.cycle.now();
    count(a1, 30, now);
    count(a2, 5, now);
    count(b1, 40, now);
    count(b2, 7, now);
    await synced(a.cycle, 1);
    expect(a.cycle.calls).toBe(1); // both counters of the tenant in one call
    await synced(b.cycle, 1);
    b.store.use(keys[0]!, tenant, hour, 10);
    a.store.use(keys[0]!, tenant, hour, 10);
    a.store.use(keys[1]!, tenant, bucket, 10);
    await synced(a.cycle, 2);
    expect(a1.view.b).toBe(70);
    expect(b1.view.b).toBe(70);
    // 12 units of the bucket used (times W), minus at most a few ms of drain
    expect(a2.view.a).toBeGreaterThan(11 * 3_600);
    expect(a2.view.a).toBeLessThanOrEqual(12 * 3_600);
    expect((await tenantKeys(redis, tenant)).sort()).toEqual([...keys].sort());
    for (const key of keys) expect(await redis.pttl(key)).toBeGreaterThan(0);
  });

  it("keeps counting while Redis is down and pushes everything once it is back", async () => {
    const port = await freePort();
    const throwaway = new ThrowawayRedis(port);
    await throwaway.start();
    const client = new Redis(throwaway.url, {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => 50,
    });
    client.on("error", () => undefined);
    try {
      const { store, cycle } = server(ioredisScripts(client, [localSyncScript()]));
      const tenant = `${RUN}down`;
      const key = `{t:${tenant}}:x:k:lc1`;
      const counter = store.use(key, tenant, hour, 10);
      count(counter, 10, cycle.now());
      await synced(cycle, 1);
      await throwaway.kill();
      await waitFor(() => client.status !== "ready", "the client to see Redis gone", 5_000, 10);
      for (let i = 0; i < 5; i++) {
        count(store.use(key, tenant, hour, 10), 4, cycle.now());
        cycle.tick();
        await sleep(20);
      }
      expect(counter.view.b).toBe(30); // decided and counted locally all along
      expect(counter.unsynced).toBe(true);
      await throwaway.start();
      for (let i = 0; i < 300 && counter.unsynced; i++) {
        cycle.tick();
        await sleep(20);
      }
      expect(counter.unsynced).toBe(false);
      const check = throwaway.client();
      expect(await check.hget(key, "b")).toBe("20"); // the 20 counted while Redis was away (it restarted empty)
      check.disconnect();
    } finally {
      client.disconnect();
      await throwaway.kill();
    }
  }, 30_000);
});
