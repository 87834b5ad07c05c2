import { describe, it } from "vitest";
import { HA_BASE, SENTINEL_NAME, SentinelGroup, info } from "./topology";
import { failOver, failoverRig } from "./failover-scenario";

// Redis Sentinel: a primary, a replica and three sentinels on loopback; an app process of
// its own pointed at the sentinels (REDIS_SENTINELS). Under steady check traffic the primary
// is killed (SIGKILL): every answer is a 200 within the check timeout (degraded while there
// is no primary), and exact decisions resume by themselves once the sentinels promoted the
// replica. Prints the figures docs/deployment.md quotes.

const group = new SentinelGroup(HA_BASE);
const rig = failoverRig("ha-sentinel", group, {
  REDIS_URL: `redis://127.0.0.1:${HA_BASE}`,
  REDIS_SENTINELS: group.sentinelList,
  REDIS_SENTINEL_NAME: SENTINEL_NAME,
});

describe("Redis Sentinel failover", () => {
  it("answers every check within the timeout while the primary dies, and resumes exact decisions on the promoted replica", async () => {
    await failOver(rig, {
      title: "Sentinel (primary + replica + 3 sentinels, down-after 1 s)",
      healing: "the replica's promotion",
      healedSays: "the sentinels promoted the replica",
      crash: async () => ({
        kill: () => group.primary.kill(),
        healed: async () => (await info(group.replica, "replication")).includes("role:master"),
      }),
    });
  }, 90_000);
});
