// The data behind the limit tree chart against known counters: counters are made by the real
// limiter script (evaluate, as checks do) on the test Redis, usage by the real recorder, and
// the tree is read through the DAL as a viewer would. Fixed windows of an hour keep the
// numbers still while the test runs.
import { describe, expect, it } from "vitest";
import { NotFoundError } from "@/lib/control/errors/errors";
import { limitTree } from "@/lib/control/limit-tree/limit-tree";
import { denialsStoredSince } from "@/lib/control/data/usage/denial-reads";
import { node, tree, withLimitTree } from "./limit-tree-fixture";

withLimitTree();
const { slug, other } = tree;

describe("limit tree data", () => {
  it("shows a key at 80% of its limit as 80%, bound by the tenant's smaller share left", async () => {
    const data = await limitTree(tree.viewer, { tenant: slug, range: "15m" });
    const k80 = node(data, "key:k80");
    expect(k80.utilization).toBeCloseTo(0.8, 5);
    expect(k80.limits).toEqual([
      expect.objectContaining({ name: "per-key", used: 8, capacity: 10, remaining: 2, from: "tenant" }),
    ]);
    // tenant-cap's 34 left of 200 (17 %) binds before per-key's 2 of 10 (20 %): shares, not units
    expect(k80.binding).toEqual({
      level: "tenant",
      limit: "tenant-cap",
      route: null,
      remaining: 34,
      share: 0.17,
    });
    expect(k80.rejected).toBe(4);
    expect(k80.checksRejected).toBe(4);
    expect(k80.drill).toEqual({ key: "k80" });
  });

  it("counts rejections on the limit that denied them, not on the plan and tenant rows", async () => {
    const data = await limitTree(tree.viewer, { tenant: slug, range: "15m" });
    // 7 rejected checks: 4 by k80's per-key, 1 by route-cap, 1 by per-subject, 1 unknown key
    for (const id of ["plan", "tenant"])
      expect(node(data, id)).toMatchObject({ rejected: 0, checksRejected: 7 });
    expect(node(data, "route:GET /items/*")).toMatchObject({ rejected: 1, checksRejected: 2 });
    expect(node(data, "key:kidle")).toMatchObject({ rejected: 0, checksRejected: 2 });
    expect(node(data, "subjects").rejected).toBe(1);
    // the chain: kidle's route whose limit denied its checks is drawn under it
    const ids = data.nodes.map((n) => n.id);
    const under = node(data, "key-route:kidle GET /items/*");
    expect(ids.indexOf(under.id)).toBe(ids.indexOf("key:kidle") + 1);
    expect(under).toMatchObject({
      depth: 3,
      rejected: 1,
      checksRejected: 2,
      drill: { route: "GET /items/*" },
    });
    // no route of k80 or kbig denied anything: nothing under them
    expect(ids.filter((id) => id.startsWith("key-route:"))).toEqual([under.id]);
    expect(data.attributedSince).toBe(data.generatedAt - 15 * 60_000);
  });

  it("counts the same rejections per limit on a 24 h range, since the stored hours begin", async () => {
    const data = await limitTree(tree.viewer, { tenant: slug, range: "24h" });
    for (const id of ["plan", "tenant"])
      expect(node(data, id)).toMatchObject({ rejected: 0, checksRejected: 7 });
    expect(node(data, "key:k80")).toMatchObject({ rejected: 4, checksRejected: 4 });
    expect(node(data, "route:GET /items/*")).toMatchObject({ rejected: 1, checksRejected: 2 });
    expect(node(data, "subjects").rejected).toBe(1);
    // the range's first hour whole, as its other counts; never before the tables existed
    const firstHour = Math.floor((data.generatedAt - 86_400_000) / 3_600_000) * 3_600_000;
    expect(data.attributedSince).toBe(Math.max(firstHour, (await denialsStoredSince()) ?? firstHour));
  });

  it("scopes a key's view to that key's checks", async () => {
    const key = await limitTree(tree.viewer, { tenant: slug, key: "k80", range: "15m" });
    expect(node(key, "plan")).toMatchObject({ rejected: 0, checksRejected: 4 });
    expect(node(key, "key:k80")).toMatchObject({ rejected: 4, checksRejected: 4 });
  });

  it("marks as binding the limit with the smallest share left", async () => {
    const data = await limitTree(tree.viewer, { tenant: slug, range: "15m" });
    // tenant-cap: 8 + 150 + 5 + 3 = 166 of 200 (17 % left) < kbig's per-key 70 % < plan's 83 %
    const tenant = node(data, "tenant");
    expect(tenant.limits).toEqual([
      expect.objectContaining({ name: "tenant-cap", used: 166, remaining: 34 }),
    ]);
    expect(node(data, "plan").limits).toEqual([
      expect.objectContaining({ name: "plan-cap", used: 166, remaining: 834, from: "plan" }),
    ]);
    const kbig = node(data, "key:kbig");
    expect(kbig.limits).toEqual([
      expect.objectContaining({ name: "per-key", used: 150, capacity: 500, from: "key" }),
    ]);
    const tenantCap = { level: "tenant", limit: "tenant-cap", route: null, remaining: 34, share: 0.17 };
    expect(kbig.binding).toEqual(tenantCap);
    // kidle's per-key has 2 of 10 left (20 %): the tenant's 17 % binds it (the fewest units did not)
    expect(node(data, "key:kidle").binding).toEqual(tenantCap);
    // the hottest key first
    const keys = data.nodes.filter((n) => n.level === "key").map((n) => n.id);
    expect(keys).toEqual(["key:k80", "key:kidle", "key:kbig"]);
    expect(node(data, "route:GET /items/*").limits).toEqual([
      expect.objectContaining({ name: "route-cap", used: 5, remaining: 45 }),
    ]);
  });

  it("summarizes subject limits over the subjects rejected recently", async () => {
    const data = await limitTree(tree.viewer, { tenant: slug, range: "15m" });
    const subjects = node(data, "subjects");
    expect(subjects.subjects).toEqual({ atLimit: 1, active: 1, denied: 0, allowed: 0 });
    expect(subjects.label).toBe("subjects at their limit: 1 of 1");
    // the subjects' limit denied one of the subject's two rejected checks
    expect(subjects.rejected).toBe(1);
    expect(subjects.checksRejected).toBe(2);
    expect(subjects.limits).toEqual([
      expect.objectContaining({ name: "per-subject", used: 3, remaining: 0 }),
    ]);
  });

  it("drills into a key (its routes, with the route's binding) and a route (the keys using it)", async () => {
    const key = await limitTree(tree.viewer, { tenant: slug, key: "kidle", range: "15m" });
    expect(key.view).toEqual({ key: "kidle", route: null });
    const onRoute = node(key, "key-route:kidle GET /items/*");
    expect(onRoute.limits).toEqual([expect.objectContaining({ name: "route-cap", used: 5 })]);
    expect(onRoute.rejected).toBe(1);
    expect(onRoute.checksRejected).toBe(2);
    // on the chain with the route: route-cap 90 % left, per-key 20 %, tenant-cap 17 %
    expect(onRoute.binding).toEqual({
      level: "tenant",
      limit: "tenant-cap",
      route: null,
      remaining: 34,
      share: 0.17,
    });
    const route = await limitTree(tree.viewer, { tenant: slug, route: "GET /items/*", range: "15m" });
    expect(route.nodes.filter((n) => n.level === "key-route").map((n) => n.id)).toEqual([
      "key-route:kidle GET /items/*",
    ]);
    await expect(
      limitTree(tree.viewer, { tenant: slug, route: "GET /nowhere", range: "15m" }),
    ).rejects.toThrow(NotFoundError);
    await expect(limitTree(tree.viewer, { tenant: slug, key: "nokey", range: "15m" })).rejects.toThrow(
      NotFoundError,
    );
  });

  it("shows the settings' origin: plan, tenant, key override", async () => {
    const key = await limitTree(tree.viewer, { tenant: slug, key: "kbig", range: "15m" });
    const perKey = node(key, "key:kbig").limits[0];
    expect(perKey?.from).toBe("key");
    expect(perKey?.provenance.map((p) => p.level)).toEqual(["tenant", "key"]);
  });

  it("keeps tenants apart: only the tenant's own counters, and others' viewers get not found", async () => {
    const data = await limitTree(tree.viewer, { tenant: slug, range: "15m" });
    const text = JSON.stringify(data);
    expect(text).not.toContain(other);
    // the other tenant's k80 is full (10 of 10); ours stays at 8
    expect(node(data, "key:k80").limits[0]?.used).toBe(8);
    await expect(limitTree(tree.stranger, { tenant: slug, range: "15m" })).rejects.toThrow(NotFoundError);
    const theirs = await limitTree(tree.stranger, { tenant: other, range: "15m" });
    expect(node(theirs, "key:k80").utilization).toBe(1);
  });
});
