import { describe, expect, it } from "vitest";
import { HA_BASE } from "./topology";
import { ClusterGroup } from "./cluster-topology";
import { failOver, failoverRig } from "./failover-scenario";

// Redis Cluster: three primaries and three replicas on loopback (node timeout 1.5 s); an
// app process of its own pointed at it (REDIS_CLUSTER_NODES). Under steady check traffic
// the primary of the tenant's slot is killed (SIGKILL): every answer is a 200 within the
// check timeout, and exact decisions resume once its replica took over the slots.

const group = new ClusterGroup(HA_BASE + 5);
const rig = failoverRig("ha-cluster", group, { REDIS_CLUSTER_NODES: group.seedList });

describe("Redis Cluster failover", () => {
  it("answers every check within the timeout while the slot's primary dies, and resumes exact decisions on its replica", async () => {
    await failOver(rig, {
      title: "Cluster (3 primaries + 3 replicas, node timeout 1.5 s)",
      healing: "a replica to take over",
      healedSays: "a replica took the slot over",
      crash: async () => {
        // the tenant's counters: the only keys with a tenant hash tag on this cluster
        const key = await group.anyKey("*{t:*");
        expect(key).not.toBeNull();
        const victim = await group.primaryOf(key as string);
        if (!victim) throw new Error("no primary serves the tenant's slot");
        const survivor = group.nodes.find((node) => node !== victim) ?? victim;
        return {
          kill: () => victim.kill(),
          // healed: another node serves the slot, as a survivor sees it
          healed: async () => ![null, victim].includes(await group.primaryOf(key as string, survivor)),
        };
      },
    });
  }, 90_000);
});
