// The data behind the limit tree chart against known counters: counters are made by the real
// limiter script (evaluate, as checks do) on the test Redis, usage by the real recorder, and
// the tree is read through the DAL as a viewer would. Fixed windows of an hour keep the
// numbers still while the test runs.
import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/shared/principal";
import { resolveRoutes } from "@/lib/control/config/compile";
import { importConfig } from "@/lib/control/data/import-config";
import { createApiKey } from "@/lib/control/data/api-keys";
import { exportConfig } from "@/lib/control/data/export-config";
import { planCheck } from "@/lib/control/counters/counter-specs";
import { counterClient, latestSnapshot } from "@/lib/control/data/counters-store";
import { NotFoundError } from "@/lib/control/errors/errors";
import { limitTree } from "@/lib/control/limit-tree/limit-tree";
import { denialsStoredSince } from "@/lib/control/data/usage/denial-reads";
import { evaluate } from "@/lib/check/limiter/evaluate";
import type { LimitSpec } from "@/lib/check/limiter/types";
import type { LimitTreeData, TreeNode } from "@/lib/control/limit-tree/types";
import { redis } from "@/lib/shared/redis/redis";
import { UsageRecorder } from "@/lib/usage/record/recorder";
import { usageSettings } from "@/lib/usage/settings";
import { makeMember, system, uniqueSlug } from "./fixtures";

const hour = { algorithm: "fixed_window", window: "1h" } as const;
const plan = uniqueSlug("tree-plan");
const slug = uniqueSlug("tree");
const other = uniqueSlug("tree-other");
const ids: Record<string, string> = {};
let tenantId = "";
let viewer: Principal;
let stranger: Principal;

/** `cost` units through the limiter for a check of `key` on `route` (tenant `s`). */
async function consume(
  s: string,
  key: string,
  cost: number,
  route: string | null = null,
  subject: string | null = null,
) {
  const snapshot = await latestSnapshot();
  const tenant = snapshot?.tenants[s];
  if (!snapshot || !tenant) throw new Error("no snapshot");
  const owners = { tenantId: tenant.id, keyId: tenant.keys[key]?.id ?? null, subject };
  const specs = planCheck(tenant, key, resolveRoutes(snapshot, s, route), owners).flatMap((p) =>
    p.spec ? [p.spec] : [],
  );
  const decision = await evaluate(counterClient(), specs as LimitSpec[], { cost, dryRun: false });
  expect(decision.allowed).toBe(true);
}

const node = (data: LimitTreeData, id: string): TreeNode => {
  const found = data.nodes.find((n) => n.id === id);
  if (!found) throw new Error(`no node ${id} in ${data.nodes.map((n) => n.id).join(", ")}`);
  return found;
};

/** An answer's JSON as checks render it (docs/api.md): the plan's limit admitted, `name` denied. */
function deniedBy(name: string, level: string, by: string): string {
  const entry = (n: string, l: string, b: string, allowed: boolean) => ({
    name: n,
    level: l,
    by: b,
    algorithm: "fixed_window",
    limit: 10,
    windowMs: 3_600_000,
    remaining: allowed ? 5 : 0,
    resetMs: 1_000,
    allowed,
    mode: "enforce",
  });
  return JSON.stringify({
    allowed: false,
    reason: "rate_limited",
    tenant: slug,
    key: null,
    route: null,
    limit: 10,
    remaining: 0,
    resetMs: 1_000,
    retryAfterMs: 1_000,
    waitMs: 0,
    limits: [entry("plan-cap", "plan", "tenant", true), entry(name, level, by, false)],
    degraded: false,
    configVersion: 1,
  });
}

function tenantDoc(s: string, keys: unknown[]) {
  return {
    slug: s,
    name: s,
    plan,
    limits: [
      { name: "tenant-cap", by: "tenant", limit: 200, ...hour },
      { name: "per-key", by: "key", limit: 10, ...hour },
      { name: "per-subject", by: "subject", limit: 3, ...hour },
    ],
    routes: [{ pattern: "GET /items/*", limits: [{ name: "route-cap", by: "tenant", limit: 50, ...hour }] }],
    keys,
  };
}

beforeAll(async () => {
  // a document's plans are all plans: keep every existing one
  const current = await exportConfig(system);
  await importConfig(system, {
    plans: [
      ...(current.plans ?? []),
      { name: plan, limits: [{ name: "plan-cap", by: "tenant", limit: 1000, ...hour }] },
    ],
    routes: current.routes ?? [],
  });
  await importConfig(system, { tenants: [tenantDoc(slug, []), tenantDoc(other, [])] });
  for (const s of [slug, other]) {
    for (const k of ["k80", "kbig", "kidle"]) {
      const key = await createApiKey(system, s, { name: k });
      if (s === slug) ids[k] = key.id;
    }
  }
  // kbig's own per-key limit: 500 (a key override)
  await importConfig(system, {
    tenants: [tenantDoc(slug, [{ name: "kbig", limits: [{ name: "per-key", limit: 500 }] }])],
  });
  const { db } = await import("@/lib/control/data/db");
  tenantId = (await db().tenant.findUniqueOrThrow({ where: { slug }, select: { id: true } })).id;
  const otherId = (await db().tenant.findUniqueOrThrow({ where: { slug: other }, select: { id: true } })).id;
  viewer = await makeMember(`${slug}-viewer@test.local`, tenantId, "viewer");
  stranger = await makeMember(`${other}-viewer@test.local`, otherId, "viewer");

  await consume(slug, "k80", 8);
  await consume(slug, "kbig", 150);
  await consume(slug, "kidle", 5, "GET /items/42");
  await consume(slug, "kidle", 3, null, "203.0.113.9");
  // the other tenant's keys of the same names are full: none of it may show in ours
  await consume(other, "k80", 10);

  const recorder = new UsageRecorder({
    redis,
    ns: usageSettings().ns,
    enabled: true,
    secondsRetentionMs: 3_600_000,
    clock: Date.now,
  });
  // k80's checks denied by its per-key limit
  for (let i = 0; i < 4; i++)
    recorder.record({
      tenantId,
      keyId: ids.k80 ?? "",
      route: null,
      outcome: "rejected",
      subject: null,
      body: deniedBy("per-key", "tenant", "key"),
    });
  // kidle's on the route: one denied by the subject's limit, one by the route's
  recorder.record({
    tenantId,
    keyId: ids.kidle ?? "",
    route: "GET /items/*",
    outcome: "rejected",
    subject: "203.0.113.9",
    body: deniedBy("per-subject", "tenant", "subject"),
  });
  recorder.record({
    tenantId,
    keyId: ids.kidle ?? "",
    route: "GET /items/*",
    outcome: "rejected",
    subject: "203.0.113.9",
    body: deniedBy("route-cap", "route", "tenant"),
  });
  // an unknown key's answer names no limit: a rejection through the tenant, on no limit's row
  recorder.record({
    tenantId,
    keyId: null,
    route: null,
    outcome: "rejected",
    subject: null,
    body: JSON.stringify({ allowed: false, reason: "unknown_key", limits: [] }),
  });
  recorder.record({
    tenantId,
    keyId: ids.kidle ?? "",
    route: "GET /items/*",
    outcome: "allowed",
    subject: null,
  });
  await recorder.flush();
});

describe("limit tree data", () => {
  it("shows a key at 80% of its limit as 80%, bound by the tenant's smaller share left", async () => {
    const data = await limitTree(viewer, { tenant: slug, range: "15m" });
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
    const data = await limitTree(viewer, { tenant: slug, range: "15m" });
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
    const data = await limitTree(viewer, { tenant: slug, range: "24h" });
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
    const key = await limitTree(viewer, { tenant: slug, key: "k80", range: "15m" });
    expect(node(key, "plan")).toMatchObject({ rejected: 0, checksRejected: 4 });
    expect(node(key, "key:k80")).toMatchObject({ rejected: 4, checksRejected: 4 });
  });

  it("marks as binding the limit with the smallest share left", async () => {
    const data = await limitTree(viewer, { tenant: slug, range: "15m" });
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
    const data = await limitTree(viewer, { tenant: slug, range: "15m" });
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
    const key = await limitTree(viewer, { tenant: slug, key: "kidle", range: "15m" });
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
    const route = await limitTree(viewer, { tenant: slug, route: "GET /items/*", range: "15m" });
    expect(route.nodes.filter((n) => n.level === "key-route").map((n) => n.id)).toEqual([
      "key-route:kidle GET /items/*",
    ]);
    await expect(limitTree(viewer, { tenant: slug, route: "GET /nowhere", range: "15m" })).rejects.toThrow(
      NotFoundError,
    );
    await expect(limitTree(viewer, { tenant: slug, key: "nokey", range: "15m" })).rejects.toThrow(
      NotFoundError,
    );
  });

  it("shows the settings' origin: plan, tenant, key override", async () => {
    const key = await limitTree(viewer, { tenant: slug, key: "kbig", range: "15m" });
    const perKey = node(key, "key:kbig").limits[0];
    expect(perKey?.from).toBe("key");
    expect(perKey?.provenance.map((p) => p.level)).toEqual(["tenant", "key"]);
  });

  it("keeps tenants apart: only the tenant's own counters, and others' viewers get not found", async () => {
    const data = await limitTree(viewer, { tenant: slug, range: "15m" });
    const text = JSON.stringify(data);
    expect(text).not.toContain(other);
    // the other tenant's k80 is full (10 of 10); ours stays at 8
    expect(node(data, "key:k80").limits[0]?.used).toBe(8);
    await expect(limitTree(stranger, { tenant: slug, range: "15m" })).rejects.toThrow(NotFoundError);
    const theirs = await limitTree(stranger, { tenant: other, range: "15m" });
    expect(node(theirs, "key:k80").utilization).toBe(1);
  });
});
