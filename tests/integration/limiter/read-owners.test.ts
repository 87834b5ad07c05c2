import { afterAll, describe, expect, it } from "vitest";
import { readCounters } from "@/lib/control/limit-tree/limit-tree-counters";
import { logUsage, usageOf } from "@/lib/control/limit-tree/readings";
import { evaluate } from "@/lib/check/limiter/evaluate";
import { entryOf, limitKey, ownerKey } from "@/lib/check/limiter/keys";
import type { LimitSpec } from "@/lib/check/limiter/types";
import { rule, spec } from "../../unit/limiter/rules";
import { Redis } from "ioredis";
import { clusterNodes, connect, redisUrl, RUN } from "./redis";

// lua/read-owners.lua, the limit tree's one read (also run on the Redis Cluster suite): the
// owner keys' records as the limiter wrote them, decoded in the app, and a sliding log's
// units in its window, for counters made by the real check script.

const redis = connect();
afterAll(() => redis.quit());

const HOUR = 3_600_000;

describe("reading many owners in one call", () => {
  it("gives back what the check script wrote, per algorithm, and nothing for absent owners", async () => {
    const tenant = `${RUN}tree`;
    const of = (id: string, r: LimitSpec["rule"], owner: string, route?: string): LimitSpec => ({
      ...spec(tenant, id, r, route ? `${owner} ${route}` : owner),
      owner,
    });
    const fixed = of("fw", rule("fixed_window", 10, HOUR), "k.1");
    const bucket = of("tb", rule("token_bucket", 10, HOUR, { burst: 20 }), "k.1", "GET /s");
    const sliding = of("sw", rule("sliding_window", 10, HOUR), "t.x");
    const log = of("sl", rule("sliding_log", 5, HOUR), "t.x");
    const decision = await evaluate(redis, [fixed, bucket, sliding, log], { cost: 4, dryRun: false });
    expect(decision.allowed).toBe(true);

    const owners = [ownerKey(tenant, "k.1"), ownerKey(tenant, "t.x"), ownerKey(tenant, "k.absent")];
    const read = await readCounters(owners, [{ key: limitKey(log), windowMs: HOUR }], redis);
    const record = (s: LimitSpec) => read.owners.get(limitKey(s))?.get(entryOf(s));
    expect(usageOf(fixed.rule, record(fixed), read.now).used).toBe(4);
    expect(usageOf(bucket.rule, record(bucket), read.now).used).toBeCloseTo(4, 2);
    expect(usageOf(sliding.rule, record(sliding), read.now).used).toBe(4);
    expect(logUsage(log.rule, read.logs.get(limitKey(log)) ?? -1).used).toBe(4);
    expect(read.owners.get(ownerKey(tenant, "k.absent"))?.size).toBe(0);
    // Redis time, not the app's
    expect(Math.abs(read.now - Date.now())).toBeLessThan(60_000);
  });

  it.skipIf(clusterNodes() !== null)(
    "reads under the deployment's key prefix (REDIS_PREFIX) as the limiter writes",
    async () => {
      const prefixed = new Redis(redisUrl(), { protocol: 2, keyPrefix: `${RUN}p:` });
      try {
        const tenant = `${RUN}treep`;
        const fixed: LimitSpec = {
          ...spec(tenant, "fw", rule("fixed_window", 10, HOUR), "k.1"),
          owner: "k.1",
        };
        await evaluate(prefixed, [fixed], { cost: 3, dryRun: false });
        const read = await readCounters([ownerKey(tenant, "k.1")], [], prefixed);
        expect(
          usageOf(fixed.rule, read.owners.get(ownerKey(tenant, "k.1"))?.get(entryOf(fixed)), read.now).used,
        ).toBe(3);
        // unprefixed, the same key holds nothing
        const plain = await readCounters([ownerKey(tenant, "k.1")], [], redis);
        expect(plain.owners.get(ownerKey(tenant, "k.1"))?.size).toBe(0);
      } finally {
        prefixed.disconnect();
      }
    },
  );
});
