import { Cluster } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { evaluate } from "@/lib/check/limiter/evaluate";
import { limitKey } from "@/lib/check/limiter/keys";
import { rule, spec } from "../../unit/limiter/rules";
import { clusterNodes, connect, RUN } from "./redis";

// On Redis Cluster (REDIS_CLUSTER_NODES set): all limits of a check share the tenant's hash
// tag, so hierarchical checks run as one script call on whichever master holds the tenant.

const TENANTS = 48;

describe.skipIf(!clusterNodes())("on Redis Cluster", () => {
  const redis = connect() as Cluster;
  afterAll(() => redis.quit());

  it(`runs hierarchical checks for ${TENANTS} tenants spread over all masters, no CROSSSLOT`, async () => {
    const tenants = Array.from({ length: TENANTS }, (_, i) => `${RUN}x${i}`);
    const checks = tenants.map((tenant) => [
      spec(tenant, "key-rps", rule("token_bucket", 3, 60_000), "k:1"),
      spec(tenant, "route-search", rule("gcra", 5, 60_000), "k:1|POST /v1/search"),
      spec(tenant, "tenant-rpm", rule("sliding_window", 4, 60_000), "t"),
      spec(tenant, "subject", rule("sliding_log", 10, 60_000), "s:203.0.113.9"),
    ]);
    for (let round = 0; round < 4; round++) {
      const decisions = await Promise.all(
        checks.map((limits) => evaluate(redis, limits, { cost: 1, dryRun: false })),
      );
      for (const d of decisions) {
        expect(d.allowed).toBe(round < 3);
        if (round === 3) expect(d).toMatchObject({ reason: "rate_limited", deciding: 0 });
      }
    }
    // which master holds each tenant's slot: together they must cover every master
    const slots = await redis.cluster("SLOTS");
    const ownerOf = (slot: number) => {
      const range = slots.find(([from, to]) => slot >= from && slot <= to);
      const master = range?.[2];
      return master ? `${master[0]}:${master[1]}` : "none";
    };
    const owners = new Set<string>();
    for (const limits of checks) {
      const keySlots = new Set<number>();
      for (const l of limits) keySlots.add(Number(await redis.cluster("KEYSLOT", limitKey(l))));
      expect(keySlots.size).toBe(1);
      owners.add(ownerOf([...keySlots][0] ?? -1));
    }
    expect(owners.size).toBe(redis.nodes("master").length);
    expect(owners.size).toBeGreaterThanOrEqual(3);
  });
});
