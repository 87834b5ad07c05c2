// The limit tree tests' tenants and traffic (limit-tree.test.ts): a plan, two tenants with
// the same key names, counters made by the real limiter script and rejections recorded by
// the real usage recorder, each naming the limit that denied it.
import { beforeAll, expect } from "vitest";
import type { Principal } from "@/lib/shared/principal";
import { resolveRoutes } from "@/lib/control/config/compile";
import { importConfig } from "@/lib/control/data/import-config";
import { createApiKey } from "@/lib/control/data/api-keys";
import { exportConfig } from "@/lib/control/data/export-config";
import { planCheck } from "@/lib/control/counters/counter-specs";
import { counterClient, latestSnapshot } from "@/lib/control/data/counters-store";
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

/** The tenants' names and key ids, and a viewer of each (set once the setup ran). */
export const tree = {
  slug,
  other,
  ids,
  viewer: null as unknown as Principal,
  stranger: null as unknown as Principal,
};

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

export const node = (data: LimitTreeData, id: string): TreeNode => {
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

/** Registers the setup: call once, at the top of the test file. */
export function withLimitTree(): void {
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
    const otherId = (await db().tenant.findUniqueOrThrow({ where: { slug: other }, select: { id: true } }))
      .id;
    tree.viewer = await makeMember(`${slug}-viewer@test.local`, tenantId, "viewer");
    tree.stranger = await makeMember(`${other}-viewer@test.local`, otherId, "viewer");

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
}
