// Penalties and allow/deny lists as the operator's tools show them (docs/algorithms.md,
// "Penalties" and "Allow and deny lists"): the request simulator and the limit tree read a
// running block (and its end) from the counters the real limiter script wrote, and say what
// the lists answer a subject. Blocks of an hour keep the numbers still while the test runs.
import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/shared/principal";
import { resolveRoutes } from "@/lib/control/config/compile";
import { importConfig } from "@/lib/control/data/import-config";
import { exportConfig } from "@/lib/control/data/export-config";
import { planCheck } from "@/lib/control/counters/counter-specs";
import { counterClient, latestSnapshot } from "@/lib/control/data/counters-store";
import { simulateCheck } from "@/lib/control/counters/simulate-check";
import { limitTree } from "@/lib/control/limit-tree/limit-tree";
import { evaluate } from "@/lib/check/limiter/evaluate";
import type { LimitSpec } from "@/lib/check/limiter/types";
import type { LimitTreeData, TreeNode } from "@/lib/control/limit-tree/types";
import { redis } from "@/lib/shared/redis/redis";
import { UsageRecorder } from "@/lib/usage/record/recorder";
import { usageSettings } from "@/lib/usage/settings";
import { makeMember, system, uniqueSlug } from "./fixtures";

const plan = uniqueSlug("kinds-plan");
const slug = uniqueSlug("kinds");
const penalty = { block: "1h" };
let tenantId = "";
let viewer: Principal;

/** One check of cost 1 through the limiter, as /api/check makes it; its decision. */
async function check(subject: string | null) {
  const snapshot = await latestSnapshot();
  const tenant = snapshot?.tenants[slug];
  if (!snapshot || !tenant) throw new Error("no snapshot");
  const owners = { tenantId: tenant.id, keyId: null, subject };
  const specs = planCheck(tenant, null, resolveRoutes(snapshot, slug, null), owners).flatMap((p) =>
    p.spec ? [p.spec] : [],
  );
  return evaluate(counterClient(), specs as LimitSpec[], { cost: 1, dryRun: false });
}

const node = (data: LimitTreeData, id: string): TreeNode => {
  const found = data.nodes.find((n) => n.id === id);
  if (!found) throw new Error(`no node ${id} in ${data.nodes.map((n) => n.id).join(", ")}`);
  return found;
};

beforeAll(async () => {
  const current = await exportConfig(system);
  await importConfig(system, {
    plans: [...(current.plans ?? []), { name: plan, limits: [] }],
    routes: current.routes ?? [],
  });
  await importConfig(system, {
    tenants: [
      {
        slug,
        name: slug,
        plan,
        limits: [
          { name: "per-subject", by: "subject", algorithm: "fixed_window", limit: 1, window: "1h", penalty },
          { name: "tenant-cap", by: "tenant", algorithm: "fixed_window", limit: 1000, window: "1h" },
        ],
        lists: {
          deny: ["198.51.100.0/24", "bad-bot"],
          allow: [{ entry: "trusted", limits: ["per-subject"] }],
        },
      },
    ],
  });
  const { db } = await import("@/lib/control/data/db");
  tenantId = (await db().tenant.findUniqueOrThrow({ where: { slug }, select: { id: true } })).id;
  viewer = await makeMember(`${slug}-viewer@test.local`, tenantId, "viewer");
  // "carol" passes once, then the second check denies and starts a block of an hour
  expect((await check("carol")).allowed).toBe(true);
  expect(await check("carol")).toMatchObject({ allowed: false, reason: "penalty" });
  // the tree reads the subjects rejected recently: carol, a denied one and an allowed one
  const recorder = new UsageRecorder({
    redis,
    ns: usageSettings().ns,
    enabled: true,
    secondsRetentionMs: 3_600_000,
    clock: Date.now,
  });
  for (const subject of ["carol", "198.51.100.7", "trusted"])
    recorder.record({ tenantId, keyId: null, route: null, outcome: "rejected", subject });
  await recorder.flush();
});

describe("the request simulator", () => {
  it("shows a running penalty block with its end, and denies with reason penalty", async () => {
    const before = Date.now();
    const sim = await simulateCheck(viewer, { tenant: slug, subject: "carol" });
    expect(sim).toMatchObject({ allowed: false, reason: "penalty", list: null });
    const limit = sim.limits.find((l) => l.name === "per-subject");
    expect(limit).toMatchObject({ allowsThisCheck: false, deciding: true });
    // a block of an hour, set a moment ago
    expect(limit?.penaltyBlockMs).toBeGreaterThan(3_500_000);
    expect(limit?.penaltyBlockMs).toBeLessThanOrEqual(3_600_000);
    const ends = Date.parse(limit?.penaltyBlockEnds ?? "");
    expect(ends).toBeGreaterThan(before + 3_500_000);
    expect(ends).toBeLessThanOrEqual(Date.now() + 3_600_000);
    // another subject is not blocked
    const dave = await simulateCheck(viewer, { tenant: slug, subject: "dave" });
    expect(dave).toMatchObject({ allowed: true, reason: "ok" });
    expect(dave.limits.every((l) => l.penaltyBlockMs === undefined)).toBe(true);
  });

  it("denies a subject of the deny list before any limit, naming the list", async () => {
    for (const subject of ["198.51.100.7", "bad-bot"]) {
      const sim = await simulateCheck(viewer, { tenant: slug, subject });
      expect(sim, subject).toMatchObject({
        allowed: false,
        reason: "deny_list",
        retryAfterMs: null,
        limits: [],
        list: { verdict: "deny", from: ["tenant"], skips: null },
      });
      expect(sim.skipped.map((s) => s.name).sort()).toEqual(["per-subject", "tenant-cap"]);
      expect(sim.skipped[0]?.reason).toBe("not evaluated: the subject is on the tenant deny list");
    }
  });

  it("leaves out the limits an allow entry skips, and evaluates the others", async () => {
    const sim = await simulateCheck(viewer, { tenant: slug, subject: "trusted" });
    expect(sim).toMatchObject({
      allowed: true,
      list: { verdict: "allow", from: ["tenant"], skips: ["per-subject"] },
    });
    expect(sim.limits.map((l) => l.name)).toEqual(["tenant-cap"]);
    expect(sim.skipped).toContainEqual(
      expect.objectContaining({
        name: "per-subject",
        reason: "skipped: the subject is on the tenant allow list",
      }),
    );
    // a subject on no list: both limits, no list verdict
    const plain = await simulateCheck(viewer, { tenant: slug, subject: "dave" });
    expect(plain.list).toBeNull();
    expect(plain.limits.map((l) => l.name).sort()).toEqual(["per-subject", "tenant-cap"]);
  });
});

describe("the limit tree", () => {
  it("shows the blocked subject's running block and counts listed subjects apart", async () => {
    const data = await limitTree(viewer, { tenant: slug, range: "15m" });
    const subjects = node(data, "subjects");
    // carol is blocked (at her limit); the denied subject meets no limit; trusted is read
    expect(subjects.subjects).toEqual({ atLimit: 1, active: 3, denied: 1, allowed: 1 });
    expect(subjects.label).toBe("subjects at their limit: 1 of 3 · 1 on a deny list, 1 on an allow list");
    const reading = subjects.limits.find((l) => l.name === "per-subject");
    expect(reading).toMatchObject({ remaining: 0, utilization: 1 });
    expect(reading?.penaltyBlock?.leftMs).toBeGreaterThan(3_500_000);
    expect(reading?.penaltyBlock?.endsAt).toBeGreaterThan(Date.now() + 3_500_000);
    // the tenant's own limit carries no penalty and shows no block
    expect(node(data, "tenant").limits.every((l) => l.penaltyBlock === undefined)).toBe(true);
  });
});
