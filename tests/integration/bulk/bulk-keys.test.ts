// POST /api/admin/tenants/{slug}/keys/bulk over HTTP: many keys in one change (one config
// version, one key.create entry each), secrets shown once that work on /api/check; scoped
// as one key is (viewer refused, editor of A not in B); bad items named at their index;
// a clash at item N leaves none created; 1,000 per request and the per-tenant cap.
import { beforeAll, describe, expect, it } from "vitest";
import {
  anyPlan,
  call,
  createAdminToken,
  createKey,
  putTenants,
  uniqueSlug,
  type ErrorReply,
} from "../admin/http";
import { auditOf, checkWithKey, fillKeys, keyCount, newRequestId } from "./bulk-helpers";

const a = uniqueSlug("bulk-a");
const b = uniqueSlug("bulk-b");
const path = (slug: string) => `/api/admin/tenants/${slug}/keys/bulk`;
let editorA = "";
let viewerA = "";

interface Created {
  keys: { id: string; name: string; key: string; prefix: string }[];
}

beforeAll(async () => {
  const plan = await anyPlan();
  await putTenants([
    { slug: a, plan },
    { slug: b, plan },
  ]);
  editorA = await createAdminToken({ name: "bulk editor", role: "editor", tenant: a });
  viewerA = await createAdminToken({ name: "bulk viewer", role: "viewer", tenant: a });
});

describe("bulk key creation", () => {
  it("creates every key in one version, audited per key; each secret works on /api/check", async () => {
    const requestId = newRequestId();
    const reply = await call<Created>("POST", path(a), {
      token: editorA,
      headers: { "x-request-id": requestId },
      body: { keys: [{ name: "m1" }, { name: "m2", expiresAt: "2099-01-01T00:00:00Z" }, { name: "m3" }] },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.keys.map((k) => k.name)).toEqual(["m1", "m2", "m3"]);
    expect(new Set(reply.body.keys.map((k) => k.key)).size).toBe(3);
    const audit = await auditOf(requestId);
    expect(audit.map((e) => e.action)).toEqual(["key.create", "key.create", "key.create"]);
    expect(audit.map((e) => e.targetId).sort()).toEqual(reply.body.keys.map((k) => k.id).sort());
    expect(new Set(audit.map((e) => e.configVersion)).size).toBe(1);
    expect(audit[0]?.configVersion).toEqual(expect.any(Number));
    for (const key of reply.body.keys) {
      const check = await checkWithKey(key.key);
      expect(check).toMatchObject({ allowed: true, reason: "ok" });
    }
    const list = await call<{ keys: { name: string; expiresAt: string | null }[] }>(
      "GET",
      `/api/admin/tenants/${a}/keys`,
    );
    expect(list.body.keys.find((k) => k.name === "m2")?.expiresAt).toBe("2099-01-01T00:00:00.000Z");
    expect(list.text).not.toContain(reply.body.keys[0]?.key);
  });

  it("a viewer is refused; an editor of A cannot create in B (404, as a tenant out of sight)", async () => {
    const viewer = await call<ErrorReply>("POST", path(a), {
      token: viewerA,
      body: { keys: [{ name: "v1" }] },
    });
    expect(viewer.status).toBe(403);
    const other = await call<ErrorReply>("POST", path(b), {
      token: editorA,
      body: { keys: [{ name: "x1" }] },
    });
    expect(other.status).toBe(404);
    const hostile = await call<ErrorReply>(
      "POST",
      `/api/admin/tenants/${encodeURIComponent("../" + b)}/keys/bulk`,
      {
        token: editorA,
        body: { keys: [{ name: "x2" }] },
      },
    );
    expect([400, 404]).toContain(hostile.status);
    expect(await keyCount(b)).toBe(0);
    const names = (await call<{ keys: { name: string }[] }>("GET", `/api/admin/tenants/${a}/keys`)).body.keys;
    expect(names.map((k) => k.name)).not.toContain("v1");
  });

  it("names the bad item: keys[2].name, keys[1].expiresAt, a name listed twice, an unknown field", async () => {
    const cases: [unknown, string][] = [
      [{ keys: [{ name: "ok1" }, { name: "ok2" }, { name: "Bad Name" }] }, "keys[2].name"],
      [{ keys: [{ name: "ok1" }, { name: "ok2", expiresAt: "tomorrow" }] }, "keys[1].expiresAt"],
      [{ keys: [{ name: "ok1" }, { name: "ok1" }] }, "keys[1].name"],
      [{ keys: [{ name: "ok1", colour: "red" }] }, "keys[0].colour"],
      [{ keys: [] }, "keys"],
      [{ names: ["ok1"] }, "keys"],
    ];
    for (const [body, field] of cases) {
      const reply = await call<ErrorReply>("POST", path(a), { body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.errors?.map((e) => e.path) ?? [reply.body.error.path]).toContain(field);
    }
    const names = (await call<{ keys: { name: string }[] }>("GET", `/api/admin/tenants/${a}/keys`)).body.keys;
    expect(names.map((k) => k.name)).not.toContain("ok1");
  });

  it("a name the tenant already has, at item 3, refuses the whole list: 409 naming keys[3].name", async () => {
    await createKey(a, "taken");
    const before = await keyCount(a);
    const reply = await call<ErrorReply>("POST", path(a), {
      body: { keys: [{ name: "f0" }, { name: "f1" }, { name: "f2" }, { name: "taken" }] },
    });
    expect(reply.status).toBe(409);
    expect(reply.body.error.path).toBe("keys[3].name");
    expect(await keyCount(a)).toBe(before);
  });

  it("1,001 keys are refused; the per-tenant cap (1,000) refuses a list that would pass it, whole", async () => {
    const slug = uniqueSlug("bulk-cap");
    await putTenants([{ slug, plan: await anyPlan() }]);
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ name: `k${i}` }));
    const refused = await call<ErrorReply>("POST", path(slug), { body: { keys: tooMany } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.path).toBe("keys");
    // 998 keys written straight to the table (fast), then lists of 3 and 2 through the API
    await fillKeys(slug, 998);
    const past = await call<ErrorReply>("POST", path(slug), {
      body: { keys: [{ name: "a" }, { name: "b" }, { name: "c" }] },
    });
    expect(past.status).toBe(409);
    expect(past.body.error).toMatchObject({ code: "conflict", path: "keys" });
    expect(past.body.error.message).toMatch(/SLUICE_MAX_KEYS_PER_TENANT/);
    expect(await keyCount(slug)).toBe(998);
    const fits = await call<Created>("POST", path(slug), { body: { keys: [{ name: "a" }, { name: "b" }] } });
    expect(fits.status).toBe(201);
    expect(await keyCount(slug)).toBe(1000);
  });
});

it("a key named bulk is still revoked at DELETE .../keys/bulk", async () => {
  await createKey(a, "bulk");
  const revoked = await call<{ name: string; revoked: boolean }>("DELETE", path(a));
  expect(revoked.status).toBe(200);
  const list = await call<{ keys: { name: string; revokedAt: string | null }[] }>(
    "GET",
    `/api/admin/tenants/${a}/keys`,
  );
  expect(list.body.keys.find((k) => k.name === "bulk")?.revokedAt).toEqual(expect.any(String));
});
