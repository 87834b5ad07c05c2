// Tenant scoping and roles over HTTP: a token of one tenant sees and exports only that
// tenant, every admin call naming another tenant answers 404 exactly as for a tenant that
// does not exist, plans are an operator's, and a viewer changes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import {
  anyPlan,
  call,
  createAdminToken,
  createKey,
  exportJson,
  importJson,
  putTenants,
  uniqueSlug,
  type ErrorReply,
  type TenantDoc,
} from "./http";

const mine = uniqueSlug("iso-a");
const other = uniqueSlug("iso-b");
const ghost = uniqueSlug("iso-ghost"); // never created
let plan = "";
let admin = "";
let viewer = "";

const limits = [{ name: "adm-iso", by: "tenant", algorithm: "fixed_window", limit: 10, window: "1m" }];

beforeAll(async () => {
  plan = await anyPlan();
  await putTenants([
    { slug: mine, plan, limits },
    { slug: other, plan, limits },
  ]);
  await createKey(mine, "k1");
  await createKey(other, "k1");
  admin = await createAdminToken({ name: "adm iso admin", role: "admin", tenant: mine });
  viewer = await createAdminToken({ name: "adm iso viewer", role: "viewer", tenant: mine });
});

/** Every admin call that names a tenant, for that tenant's slug. */
function callsFor(slug: string): [string, string, string, unknown][] {
  const doc = { tenants: [{ slug, plan, limits }] };
  return [
    ["list keys", "GET", `/api/admin/tenants/${slug}/keys`, undefined],
    ["create key", "POST", `/api/admin/tenants/${slug}/keys`, { name: "k2" }],
    ["revoke key", "DELETE", `/api/admin/tenants/${slug}/keys/k1`, undefined],
    ["state", "GET", `/api/admin/state?tenant=${slug}`, undefined],
    ["reset", "POST", "/api/admin/reset", { tenant: slug, limit: "adm-iso" }],
    ["audit", "GET", `/api/admin/audit?tenant=${slug}`, undefined],
    ["usage", "GET", `/api/admin/usage?tenant=${slug}`, undefined],
    ["import", "PUT", "/api/admin/config", doc],
    ["service token", "POST", "/api/admin/service-tokens", { name: "x", tenants: [slug] }],
    ["admin token", "POST", "/api/admin/admin-tokens", { name: "x", role: "viewer", tenant: slug }],
  ];
}

describe("another tenant is not there", () => {
  it.each(callsFor("SLUG").map(([label]) => [label]))(
    "%s: 404 as for a tenant that does not exist",
    async (label) => {
      const index = callsFor("SLUG").findIndex(([l]) => l === label);
      const [, method, path, body] = callsFor(other)[index]!;
      const [, , ghostPath, ghostBody] = callsFor(ghost)[index]!;
      const hidden = await call<ErrorReply>(method, path, { token: admin, body });
      const missing = await call<ErrorReply>(method, ghostPath, { token: admin, body: ghostBody });
      expect(hidden.status).toBe(404);
      expect(missing.status).toBe(404);
      expect(hidden.body.error.code).toBe("not_found");
      expect(hidden.body.error.message.replaceAll(other, "<slug>")).toBe(
        missing.body.error.message.replaceAll(ghost, "<slug>"),
      );
    },
  );

  it("the other tenant's key was not revoked and its config not changed", async () => {
    const keys = await call<{ keys: { name: string; revokedAt: string | null }[] }>(
      "GET",
      `/api/admin/tenants/${other}/keys`,
    );
    expect(keys.body.keys).toEqual([expect.objectContaining({ name: "k1", revokedAt: null })]);
  });
});

describe("a tenant-scoped token", () => {
  it("exports only its tenant, no plans or global routes", async () => {
    const doc = await exportJson(admin);
    expect(doc.tenants?.map((t) => t.slug)).toEqual([mine]);
    expect(doc.plans).toBeUndefined();
    expect(doc.routes).toBeUndefined();
  });

  it("re-importing its own export changes nothing", async () => {
    const reply = await importJson(await exportJson(admin), "", admin);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ configVersion: null, changes: [] });
  });

  it("may change its own tenant's limits", async () => {
    const tenant: TenantDoc = {
      slug: mine,
      plan,
      limits: [...limits, { name: "adm-iso-2", by: "key", algorithm: "gcra", limit: 3, window: "1s" }],
    };
    const reply = await importJson({ tenants: [tenant] }, "", admin);
    expect(reply.status).toBe(200);
    expect(reply.body.changes).toEqual([{ action: "update", target: "tenant", name: mine }]);
  });

  it("cannot import plans, routes or prune: 403", async () => {
    const own = (await exportJson(admin)).tenants!;
    const withPlans = await importJson({ plans: [{ name: plan, limits: [] }], tenants: own }, "", admin);
    expect(withPlans.status).toBe(403);
    const prune = await importJson({ tenants: own }, "?prune=true", admin);
    expect(prune.status).toBe(403);
    expect(prune.body.error.code).toBe("forbidden");
  });

  it("cannot mint an operator token or a role above its own", async () => {
    const operator = await call<ErrorReply>("POST", "/api/admin/admin-tokens", {
      token: admin,
      body: { name: "x", role: "owner" },
    });
    expect(operator.status).toBe(403);
    const owner = await call<ErrorReply>("POST", "/api/admin/admin-tokens", {
      token: admin,
      body: { name: "x", role: "owner", tenant: mine },
    });
    expect(owner.status).toBe(403);
  });

  it("sees only its tenant's audit entries", async () => {
    const reply = await call<{ entries: { tenant: string | null }[] }>("GET", "/api/admin/audit?limit=100", {
      token: admin,
    });
    expect(reply.status).toBe(200);
    expect(reply.body.entries.length).toBeGreaterThan(0);
    for (const entry of reply.body.entries) expect(entry.tenant).toBe(mine);
  });
});

describe("a viewer token", () => {
  it.each([
    ["import", "PUT", "/api/admin/config", () => ({ tenants: [{ slug: mine, plan, limits }] })],
    ["create key", "POST", `/api/admin/tenants/${mine}/keys`, () => ({ name: "viewer-key" })],
    ["revoke key", "DELETE", `/api/admin/tenants/${mine}/keys/k1`, () => undefined],
    ["reset", "POST", "/api/admin/reset", () => ({ tenant: mine, limit: "adm-iso" })],
    ["service token", "POST", "/api/admin/service-tokens", () => ({ name: "x", tenants: [mine] })],
    ["admin token", "POST", "/api/admin/admin-tokens", () => ({ name: "x", role: "viewer", tenant: mine })],
  ])("cannot %s: 403", async (_label, method, path, body) => {
    const reply = await call<ErrorReply>(method, path, { token: viewer, body: body() });
    expect(reply.status).toBe(403);
    expect(reply.body.error.code).toBe("forbidden");
  });

  it.each([
    ["export", `/api/admin/config`],
    ["keys", `/api/admin/tenants/${mine}/keys`],
    ["state", `/api/admin/state?tenant=${mine}`],
    ["audit", `/api/admin/audit?tenant=${mine}`],
    ["usage", `/api/admin/usage?tenant=${mine}`],
  ])("may read %s", async (_label, path) => {
    const reply = await call("GET", path, { token: viewer });
    expect(reply.status).toBe(200);
  });
});
