import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { UsageBatch } from "@/lib/usage/record/batch";
import { deniedBy, RecentDecisions } from "@/lib/usage/recent";
import type { UsageEvent } from "@/lib/usage/types";

const event = (i: number, outcome: UsageEvent["outcome"], body?: string): UsageEvent => ({
  tenantId: "t1",
  keyId: "k1",
  route: null,
  subject: `s${i}`,
  outcome,
  reason: outcome === "allowed" ? "ok" : "rate_limited",
  body,
});

const denial = JSON.stringify({
  limits: [
    { name: "shadowed", allowed: false, mode: "shadow" },
    { name: "per-ip", allowed: false, mode: "enforce" },
  ],
});

describe("recent decisions sample", () => {
  it("keeps the last N decisions and the last N denials per tenant, oldest first", () => {
    const recent = new RecentDecisions(3);
    for (let i = 0; i < 5; i++) recent.add(event(i, i === 1 ? "rejected" : "allowed", denial), 1000 + i);
    const t1 = recent.drainTenant("t1");
    expect(t1?.decisions.map((d) => d.subject)).toEqual(["s2", "s3", "s4"]);
    expect(t1?.denials).toEqual([
      expect.objectContaining({ subject: "s1", at: 1001, outcome: "rejected", deniedBy: "per-ip" }),
    ]);
    // drained: the next flush starts empty
    expect(recent.drainTenant("t1")).toBeNull();
  });

  it("names the first enforce limit that denied, and nothing for unreadable bodies", () => {
    expect(deniedBy(denial)).toBe("per-ip");
    expect(deniedBy("{not json")).toBeNull();
    expect(deniedBy(undefined)).toBeNull();
  });

  it("is filled by the usage batch, bounded whatever the traffic", () => {
    const batch = new UsageBatch({ maxFields: 100, maxSubjects: 10, recentPerTenant: 4 });
    for (let i = 0; i < 1000; i++) batch.add(event(i, "allowed"), 60_000 + i);
    expect(batch.recent.drainTenant("t1")?.decisions).toHaveLength(4);
  });

  it("holds no decision's event, so an allowed answer's body is not kept alive", async () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const recent = new RecentDecisions(3);
    const refs: WeakRef<UsageEvent>[] = [];
    const add = (i: number, outcome: UsageEvent["outcome"]) => {
      const e = event(i, outcome, outcome === "allowed" ? `{"allowed":true,"n":${i}}` : denial);
      refs.push(new WeakRef(e));
      recent.add(e, 1000 + i);
    };
    add(0, "allowed");
    add(1, "rejected");
    add(2, "shadow_rejected");
    // a WeakRef is cleared once the job that made it has ended
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    expect(refs.map((r) => r.deref() === undefined)).toEqual([true, true, true]);
    const t1 = recent.drainTenant("t1");
    expect(t1?.decisions.map((d) => [d.subject, d.outcome, d.reason, d.deniedBy])).toEqual([
      ["s0", "allowed", "ok", null],
      ["s1", "rejected", "rate_limited", "per-ip"],
      ["s2", "shadow_rejected", "rate_limited", "per-ip"],
    ]);
  });
});
