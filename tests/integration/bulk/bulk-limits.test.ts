// POST /api/admin/limits/bulk over HTTP: one limit added to (or replacing the one of its
// name on) many tenants, or many keys of one tenant, in one version with one audit entry
// per target changed; the limit is enforced on /api/check; validated as a document's limit
// (fields named `limit.<field>`), members' rights (a plan's limit is an operator's) and the
// per-tenant cap; a failure at any target leaves every target as it was.
import { beforeAll, describe, expect, it } from "vitest";
import {
  anyPlan,
  call,
  createAdminToken,
  createKey,
  exportJson,
  planLimitsOff,
  putTenants,
  uniqueSlug,
  type ErrorReply,
  type TenantDoc,
} from "../admin/http";
import { auditOf, checkWithKey, newRequestId } from "./bulk-helpers";

const slugs = [uniqueSlug("bl-1"), uniqueSlug("bl-2"), uniqueSlug("bl-3")];
const other = uniqueSlug("bl-other");
const perMinute = (limit: number) => ({ by: "tenant", algorithm: "fixed_window", limit, window: "1m" });
let plan = "";
let planLimit = "";
let editor = "";
let viewer = "";
let secret = "";

interface Applied {
  configVersion: number | null;
  created: string[];
  updated: string[];
  unchanged: string[];
}

const tenantOf = async (slug: string): Promise<TenantDoc | undefined> =>
  (await exportJson()).tenants?.find((t) => t.slug === slug);

interface CheckLimit {
  name: string;
  level: string;
  limit: number;
  allowed: boolean;
}

/** The bl-key limit as a check with key k3 meets it (undefined while not in force). */
async function keyLimitOf(dryRun: boolean): Promise<CheckLimit | undefined> {
  const reply = await call<{ limits?: CheckLimit[] }>("POST", "/api/check", {
    body: { apiKey: secret, dryRun },
  });
  return reply.body.limits?.find((l) => l.name === "bl-key");
}

const apply = (body: unknown, token?: string, requestId?: string) =>
  call<Applied & ErrorReply>("POST", "/api/admin/limits/bulk", {
    body,
    ...(token ? { token } : {}),
    ...(requestId ? { headers: { "x-request-id": requestId } } : {}),
  });

beforeAll(async () => {
  plan = await anyPlan();
  const off = await planLimitsOff(plan);
  planLimit = String(off[0]?.name ?? "");
  await putTenants([
    ...slugs.map((slug) => ({ slug, plan, limits: [...off] })),
    { slug: other, plan, limits: [...off] },
  ]);
  for (const name of ["k1", "k2"]) await createKey(slugs[0]!, name);
  secret = (await createKey(slugs[0]!, "k3")).key;
  editor = await createAdminToken({ name: "bl editor", role: "editor", tenant: slugs[0]! });
  viewer = await createAdminToken({ name: "bl viewer", role: "viewer", tenant: slugs[0]! });
});

describe("one limit on many tenants", () => {
  it("adds it to every tenant in one version, one entry each; again: no change; changed: updated", async () => {
    const requestId = newRequestId();
    const limit = { name: "bl-cap", ...perMinute(50) };
    const reply = await apply({ limit, tenants: slugs }, undefined, requestId);
    expect(reply.status).toBe(200);
    expect(reply.body.created).toEqual(slugs.map((s) => `tenant ${s}`));
    const audit = await auditOf(requestId);
    expect(audit.map((e) => [e.action, e.targetType, e.targetId])).toEqual(
      slugs.map((s) => ["limit.create", "tenant", s]),
    );
    expect(audit.every((e) => e.configVersion === reply.body.configVersion)).toBe(true);
    for (const slug of slugs)
      expect((await tenantOf(slug))?.limits).toContainEqual({ name: "bl-cap", ...perMinute(50) });
    const again = await apply({ limit, tenants: slugs });
    expect(again.body).toMatchObject({ configVersion: null, created: [], updated: [] });
    const changed = await apply({ limit: { ...limit, limit: 60 }, tenants: [slugs[0], slugs[1]] });
    expect(changed.body.updated).toEqual([`tenant ${slugs[0]}`, `tenant ${slugs[1]}`]);
    expect((await tenantOf(slugs[1]!))?.limits).toContainEqual({ name: "bl-cap", ...perMinute(60) });
    expect((await tenantOf(slugs[2]!))?.limits).toContainEqual({ name: "bl-cap", ...perMinute(50) });
  });

  it("a limit the document refuses is a 422 naming limit.<field>; nothing changes", async () => {
    const before = await tenantOf(slugs[0]!);
    const missing = await apply({
      limit: { name: "bl-new", by: "tenant", limit: 5, window: "1m" },
      tenants: slugs,
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors?.[0]?.path).toBe("limit.algorithm");
    expect(missing.body.errors).toHaveLength(1); // once, with the tenants it concerns
    const shape = await apply({ limit: { name: "bl-new", ...perMinute(5), window: "soon" }, tenants: slugs });
    expect(shape.status).toBe(400);
    expect(shape.body.error.path).toBe("limit.window");
    expect(await tenantOf(slugs[0]!)).toEqual(before);
  });

  it("unknown tenants (and those out of sight) are named; nothing changes anywhere", async () => {
    const reply = await apply({ limit: { name: "bl-x", ...perMinute(5) }, tenants: [slugs[0], "bl-nope"] });
    expect(reply.status).toBe(422);
    expect(reply.body.errors?.map((e) => e.path)).toEqual(["tenants[1]"]);
    const hostile = await apply(
      { limit: { name: "bl-x", ...perMinute(5) }, tenants: [slugs[0], other] },
      editor,
    );
    expect(hostile.status).toBe(422);
    expect(hostile.body.errors?.[0]).toEqual({ path: "tenants[1]", message: `no tenant named ${other}` });
    expect((await tenantOf(slugs[0]!))?.limits?.map((l) => l.name)).not.toContain("bl-x");
    expect((await tenantOf(other))?.limits?.map((l) => l.name)).not.toContain("bl-x");
  });

  it("a viewer is refused; an editor may not change a limit its plan imposes", async () => {
    const byViewer = await apply({ limit: { name: "bl-v", ...perMinute(5) }, tenants: [slugs[0]] }, viewer);
    expect(byViewer.status).toBe(403);
    if (planLimit) {
      const imposed = await apply({ limit: { name: planLimit, limit: 1 }, tenants: [slugs[0]] }, editor);
      expect(imposed.status).toBe(422);
      expect(imposed.body.errors?.[0]?.path).toBe("tenants[0]");
      expect(imposed.body.errors?.[0]?.message).toMatch(/only an operator/);
    }
    const own = await apply({ limit: { name: "bl-own", ...perMinute(7) }, tenants: [slugs[0]] }, editor);
    expect(own.status).toBe(200);
  });

  it("the per-tenant limit cap refuses at the tenant past it, and no tenant changes", async () => {
    const full = uniqueSlug("bl-full");
    const limits = Array.from({ length: 500 }, (_, i) => ({ name: `f${i}`, ...perMinute(10) }));
    await putTenants([{ slug: full, plan, limits }]);
    const reply = await apply({ limit: { name: "bl-one-more", ...perMinute(5) }, tenants: [slugs[2], full] });
    expect(reply.status).toBe(422);
    expect(reply.body.errors?.map((e) => e.path)).toEqual(["tenants[1]"]);
    expect(reply.body.errors?.[0]?.message).toMatch(/SLUICE_MAX_LIMITS_PER_TENANT/);
    expect((await tenantOf(slugs[2]!))?.limits?.map((l) => l.name)).not.toContain("bl-one-more");
  });

  it("validation names the field", async () => {
    const limit = { name: "bl-y", ...perMinute(5) };
    const cases: [unknown, string][] = [
      [{ limit, tenants: [slugs[0], slugs[0]] }, "tenants[1]"],
      [{ limit, tenants: [slugs[0], "Bad Slug"] }, "tenants[1]"],
      [{ limit, tenants: Array.from({ length: 1001 }, (_, i) => `t${i}`) }, "tenants"],
      [{ limit }, "tenants"],
      [{ limit, tenant: slugs[0] }, "keys"],
      [{ limit, tenants: [slugs[0]], keys: ["k1"] }, "keys"],
      [{ limit: { ...limit, colour: "red" }, tenants: [slugs[0]] }, "limit.colour"],
    ];
    for (const [body, field] of cases) {
      const reply = await apply(body);
      expect(reply.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(reply.body.errors?.map((e) => e.path) ?? [reply.body.error.path]).toContain(field);
    }
  });
});

describe("one limit on many keys of a tenant", () => {
  it("sets it on each key in one version (key-level entries) and /api/check enforces it", async () => {
    const requestId = newRequestId();
    const limit = { name: "bl-key", by: "key", algorithm: "fixed_window", limit: 2, window: "1h" };
    const reply = await apply({ limit, tenant: slugs[0], keys: ["k1", "k3"] }, editor, requestId);
    expect(reply.status).toBe(200);
    expect(reply.body.created).toEqual([`key k1 of tenant ${slugs[0]}`, `key k3 of tenant ${slugs[0]}`]);
    const audit = await auditOf(requestId);
    expect(audit.map((e) => [e.action, e.targetType])).toEqual([
      ["limit.create", "key"],
      ["limit.create", "key"],
    ]);
    expect(new Set(audit.map((e) => e.configVersion)).size).toBe(1);
    // the export lists bare keys too (without limits): the two keys given the limit carry it
    const keys = (await tenantOf(slugs[0]!))?.keys ?? [];
    expect(keys.filter((k) => (k.limits ?? []).length > 0).map((k) => k.name)).toEqual(["k1", "k3"]);
    // the servers pick the version up within a second: a dry run shows when it is in force
    await checkWithKey(secret);
    const deadline = Date.now() + 15_000;
    while (!(await keyLimitOf(true)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await keyLimitOf(false)).toMatchObject({ allowed: true, limit: 2 });
    expect(await keyLimitOf(false)).toMatchObject({ allowed: true });
    expect(await keyLimitOf(false)).toMatchObject({ allowed: false, level: "key" });
  });

  it("a missing key is named at its index; the editor of A cannot reach B's keys", async () => {
    const limit = { name: "bl-key2", by: "key", algorithm: "fixed_window", limit: 2, window: "1h" };
    const missing = await apply({ limit, tenant: slugs[0], keys: ["k2", "nope"] }, editor);
    expect(missing.status).toBe(422);
    expect(missing.body.errors?.map((e) => e.path)).toEqual(["keys[1]"]);
    const k2 = (await tenantOf(slugs[0]!))?.keys?.find((k) => k.name === "k2");
    expect(k2?.limits ?? []).toEqual([]);
    const elsewhere = await apply({ limit, tenant: other, keys: ["k1"] }, editor);
    expect(elsewhere.status).toBe(404);
  });
});
