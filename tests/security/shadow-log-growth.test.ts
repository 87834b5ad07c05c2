// Redis memory stays bounded: a shadow sliding_log must not grow on checks that other limits reject. The
// script itself on real Redis (REDIS_URL, or REDIS_CLUSTER_NODES): after many checks of
// which most are denied, the log holds exactly the admitted ones.
import { afterAll, describe, expect, it } from "vitest";

import { evaluate } from "@/lib/check/limiter/evaluate";
import { limitKey } from "@/lib/check/limiter/keys";

import { connect, RUN } from "../integration/limiter/redis";
import { rule, spec } from "../unit/limiter/rules";

const redis = connect();
afterAll(() => redis.quit());

describe("a shadow sliding_log behind an enforce limit", () => {
  it("keeps one entry per admitted check, none for the denied ones", async () => {
    const tenant = `${RUN}shadowlog`;
    const gate = spec(tenant, "gate", rule("fixed_window", 20, 3_600_000));
    const log = spec(tenant, "log", rule("sliding_log", 10_000, 3_600_000, { mode: "shadow" }));
    let admitted = 0;
    for (let i = 0; i < 500; i++) {
      const decision = await evaluate(redis, [gate, log], { cost: 1, dryRun: false });
      if (decision.allowed) admitted++;
    }
    expect(admitted).toBe(20);
    expect(await redis.zcard(limitKey(log))).toBe(20);
    await redis.del(limitKey(log), limitKey(gate));
  });
});
