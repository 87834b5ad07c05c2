// The Limits tab's live numbers (liveUtilization) and the limit tree (limitTree) read the
// limits as /api/check enforces them now: during a raise, a block (0) and a disable, each
// affected limit with its override, use measured against the value in force; after the
// override (ended early, or run out on its own without a new version) the plain limit
// again, over the same counters. Counters are made by the real limiter script, overrides
// through the DAL as the admin API makes them; real PostgreSQL and Redis.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/shared/principal";
import { resolveRoutes } from "@/lib/control/config/compile";
import { createApiKey } from "@/lib/control/data/api-keys";
import type { LimitOverride } from "@/lib/control/counters/check-now";
import { counterClient, latestSnapshot } from "@/lib/control/data/counters-store";
import { planCheck } from "@/lib/control/counters/counter-specs";
import { NotFoundError } from "@/lib/control/errors/errors";
import { exportConfig } from "@/lib/control/data/export-config";
import { importConfig } from "@/lib/control/data/import-config";
import { limitTree } from "@/lib/control/limit-tree/limit-tree";
import { liveUtilization, type LiveCounter } from "@/lib/control/counters/live-utilization";
import { overrideChoices } from "@/lib/control/data/override-list";
import { createOverride, endOverride } from "@/lib/control/data/overrides";
import { evaluate } from "@/lib/check/limiter/evaluate";
import type { LimitSpec } from "@/lib/check/limiter/types";
import type { LimitReading, LimitTreeData, TreeNode } from "@/lib/control/limit-tree/types";
import { makeMember, system, uniqueSlug } from "./fixtures";

const hour = { algorithm: "fixed_window", window: "1h" } as const;
const plan = uniqueSlug("ovl-plan");
const slug = uniqueSlug("ovl");
const other = uniqueSlug("ovl-other");
let viewer: Principal;
let stranger: Principal;
const opened: string[] = [];

function tenantDoc(s: string) {
  return {
    slug: s,
    name: s,
    plan,
    limits: [
      { name: "few", by: "tenant", limit: 10, ...hour },
      { name: "gone", by: "tenant", limit: 5, ...hour },
      { name: "per-key", by: "key", limit: 20, ...hour },
    ],
  };
}

/** `cost` units through the limiter for a check of `key` (as checks count them). */
async function consume(s: string, key: string, cost: number) {
  const snapshot = await latestSnapshot();
  const tenant = snapshot?.tenants[s];
  if (!snapshot || !tenant) throw new Error("no snapshot");
  const owners = { tenantId: tenant.id, keyId: tenant.keys[key]?.id ?? null, subject: null };
  const specs = planCheck(tenant, key, resolveRoutes(snapshot, s, null), owners).flatMap((p) =>
    p.spec ? [p.spec] : [],
  );
  const decision = await evaluate(counterClient(), specs as LimitSpec[], { cost, dryRun: false });
  expect(decision.allowed).toBe(true);
}

async function override(
  body: { limit: string; value: number | "disabled"; key?: string },
  ms = 3_600_000,
): Promise<LimitOverride> {
  const made = await createOverride(
    system,
    { tenant: slug, reason: "live views test", endsAt: new Date(Date.now() + ms).toISOString(), ...body },
    null,
  );
  opened.push(made.id);
  return { id: made.id, value: made.value, endsAt: made.endsAt };
}

async function end(...overrides: LimitOverride[]) {
  for (const o of overrides) await endOverride(system, o.id, null);
}

const counter = async (name: string, owner = "tenant", s = slug, who = viewer): Promise<LiveCounter> => {
  const live = await liveUtilization(who, s);
  const found = live?.counters.find((c) => c.name === name && c.owner === owner);
  if (!found) throw new Error(`no counter ${name} of ${owner} in ${JSON.stringify(live)}`);
  return found;
};

const tree = (key?: string): Promise<LimitTreeData> =>
  limitTree(viewer, { tenant: slug, range: "15m", ...(key ? { key } : {}) });

const node = (data: LimitTreeData, id: string): TreeNode => {
  const found = data.nodes.find((n) => n.id === id);
  if (!found) throw new Error(`no node ${id} in ${data.nodes.map((n) => n.id).join(", ")}`);
  return found;
};

const reading = (n: TreeNode, name: string): LimitReading => {
  const found = n.limits.find((l) => l.name === name);
  if (!found) throw new Error(`no limit ${name} on ${n.id}`);
  return found;
};

beforeAll(async () => {
  const current = await exportConfig(system);
  await importConfig(system, {
    plans: [
      ...(current.plans ?? []),
      { name: plan, limits: [{ name: "plan-cap", by: "tenant", limit: 1000, ...hour }] },
    ],
    routes: current.routes ?? [],
  });
  await importConfig(system, { tenants: [tenantDoc(slug), tenantDoc(other)] });
  for (const s of [slug, other]) for (const k of ["k1", "k2"]) await createApiKey(system, s, { name: k });
  const { db } = await import("@/lib/control/data/db");
  const idOf = async (s: string) =>
    (await db().tenant.findUniqueOrThrow({ where: { slug: s }, select: { id: true } })).id;
  viewer = await makeMember(`${slug}-viewer@test.local`, await idOf(slug), "viewer");
  stranger = await makeMember(`${other}-viewer@test.local`, await idOf(other), "viewer");
  // few 4 of 10, gone 4 of 5, k1's per-key 4 of 20; k2 untouched
  await consume(slug, "k1", 4);
  await consume(other, "k1", 2);
});

afterAll(async () => {
  // whatever a failed test left in force
  for (const id of opened) await endOverride(system, id, null).catch(() => undefined);
});

describe("the Limits tab's live numbers and the limit tree during a temporary override", () => {
  it("a raise: the value in force, use against it, the override on the limit it changed", async () => {
    const raise = await override({ limit: "few", value: 40 });
    const forKey = await override({ key: "k1", limit: "per-key", value: 50 });
    expect(await counter("few")).toMatchObject({ capacity: 40, used: 4, override: raise });
    // the rule in force, for the Limits tab's "Effective rule" (the configured one is 10)
    expect((await counter("few")).inForce).toEqual({ limit: 40, burst: null });
    expect(await counter("per-key", "k1")).toMatchObject({ capacity: 50, used: 4, override: forKey });
    // the key's override is the key's alone; the tenant's other limits are plain
    expect(await counter("per-key", "k2")).toMatchObject({ capacity: 20, used: 0, override: null });
    expect((await counter("per-key", "k2")).inForce).toEqual({ limit: 20, burst: null });
    // the form names each limit with its configured values, whatever is in force
    expect(await overrideChoices(viewer, slug)).toContainEqual({
      name: "few",
      rules: [{ limit: 10, windowMs: 3_600_000, burst: null }],
    });
    expect(await counter("gone")).toMatchObject({ capacity: 5, used: 4, override: null });

    const data = await tree();
    expect(reading(node(data, "tenant"), "few")).toMatchObject({
      limit: 40,
      used: 4,
      capacity: 40,
      remaining: 36,
      override: raise,
    });
    expect(reading(node(data, "tenant"), "few").utilization).toBeCloseTo(0.1, 5);
    expect(reading(node(data, "key:k1"), "per-key")).toMatchObject({
      limit: 50,
      remaining: 46,
      override: forKey,
    });
    expect(reading(node(data, "key:k2"), "per-key")).toMatchObject({ limit: 20, override: null });
    expect(reading(node(data, "plan"), "plan-cap").override).toBeNull();
    // the key view shows it too
    expect(reading(node(await tree("k1"), "key:k1"), "per-key").override).toEqual(forKey);

    // another tenant's viewer sees none of it, and cannot read ours
    expect(await counter("few", "tenant", other, stranger)).toMatchObject({ capacity: 10, override: null });
    const theirs = await limitTree(stranger, { tenant: other, range: "15m" });
    expect(JSON.stringify(theirs)).not.toContain(raise.id);
    await expect(liveUtilization(stranger, slug)).rejects.toThrow(NotFoundError);
    await expect(limitTree(stranger, { tenant: slug, range: "15m" })).rejects.toThrow(NotFoundError);

    // ended: the plain limits again, over the same counters
    await end(raise, forKey);
    expect(await counter("few")).toMatchObject({ capacity: 10, used: 4, override: null });
    expect(await counter("per-key", "k1")).toMatchObject({ capacity: 20, used: 4, override: null });
    const after = await tree();
    expect(reading(node(after, "tenant"), "few")).toMatchObject({ limit: 10, remaining: 6, override: null });
    expect(reading(node(after, "key:k1"), "per-key")).toMatchObject({ limit: 20, override: null });
  });

  it("a block (0): full, nothing left, what binds; the plain limit once it ends", async () => {
    const block = await override({ limit: "few", value: 0 });
    expect(block.value).toBe(0);
    expect(await counter("few")).toMatchObject({ capacity: 0, used: 0, override: block });

    const data = await tree();
    const tenant = node(data, "tenant");
    expect(reading(tenant, "few")).toMatchObject({ limit: 0, remaining: 0, utilization: 1, override: block });
    expect(tenant.utilization).toBe(1);
    // every key's checks meet it: it binds them
    expect(node(data, "key:k2").binding).toEqual({
      level: "tenant",
      limit: "few",
      route: null,
      remaining: 0,
      share: 0,
    });

    await end(block);
    expect(await counter("few")).toMatchObject({ capacity: 10, used: 4, override: null });
    const after = await tree();
    expect(reading(node(after, "tenant"), "few")).toMatchObject({ limit: 10, remaining: 6, override: null });
    // gone's 1 left of 5 (20 %) binds again, before few's 6 of 10
    expect(node(after, "key:k2").binding).toEqual({
      level: "tenant",
      limit: "gone",
      route: null,
      remaining: 1,
      share: 0.2,
    });
  });

  it("a disable: listed as disabled by its override, not counted toward its node", async () => {
    const off = await override({ limit: "gone", value: "disabled" });
    expect(off.value).toBe("disabled");
    expect(await counter("gone")).toMatchObject({ capacity: 0, used: 0, override: off });
    // the others are still read
    expect(await counter("few")).toMatchObject({ capacity: 10, used: 4, override: null });

    const tenant = node(await tree(), "tenant");
    expect(reading(tenant, "gone")).toMatchObject({ limit: 5, override: off });
    // gone (4 of 5) no longer makes the tenant's node 80% used: few's 40% does
    expect(tenant.utilization).toBeCloseTo(0.4, 5);

    await end(off);
    expect(await counter("gone")).toMatchObject({ capacity: 5, used: 4, override: null });
    const after = node(await tree(), "tenant");
    expect(reading(after, "gone")).toMatchObject({ limit: 5, remaining: 1, override: null });
    expect(after.utilization).toBeCloseTo(0.8, 5);
  });

  it("an override that runs out shows the plain limit at its end, with no new version", async () => {
    const brief = await override({ key: "k2", limit: "per-key", value: 7 }, 2_500);
    expect(await counter("per-key", "k2")).toMatchObject({ capacity: 7, override: brief });
    const version = (await tree()).configVersion;
    expect(reading(node(await tree(), "key:k2"), "per-key")).toMatchObject({ limit: 7, override: brief });
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, Date.parse(brief.endsAt) - Date.now()) + 50),
    );
    expect(await counter("per-key", "k2")).toMatchObject({ capacity: 20, override: null });
    const after = await tree();
    expect(after.configVersion).toBe(version);
    expect(reading(node(after, "key:k2"), "per-key")).toMatchObject({ limit: 20, override: null });
  });
});
