// Keys and tokens over HTTP: a secret is shown once and stored only as its hash; revoking;
// service and admin tokens; which credential may call /api/admin at all.
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { anyPlan, call, createAdminToken, createKey, putTenants, uniqueSlug, type ErrorReply } from "./http";
import { tablesContaining, withDatabase } from "./database";

const slug = uniqueSlug("keys");

interface KeyRow {
  name: string;
  prefix: string;
  revokedAt: string | null;
  key?: string;
}

beforeAll(async () => {
  await putTenants([{ slug, plan: await anyPlan() }]);
});

describe("API keys", () => {
  it("creates a key: 201 with the secret once; the database holds only its hash", async () => {
    const created = await createKey(slug, "backend");
    expect(created).toMatchObject({ id: expect.any(String), name: "backend", prefix: expect.any(String) });
    expect(created.key.startsWith(created.prefix)).toBe(true);
    expect(created.key.length).toBeGreaterThanOrEqual(32);
    expect(await tablesContaining(created.key)).toEqual([]);
    const hash = createHash("sha256").update(created.key).digest("hex");
    const stored = await withDatabase((db) =>
      db.query('select hash from "ApiKey" where id = $1', [created.id]),
    );
    expect(stored.rows[0]?.hash).toBe(hash);
  });

  it("lists keys without secrets", async () => {
    const reply = await call<{ keys: KeyRow[] }>("GET", `/api/admin/tenants/${slug}/keys`);
    expect(reply.status).toBe(200);
    expect(reply.body.keys.map((k) => k.name)).toContain("backend");
    for (const key of reply.body.keys) expect(key).not.toHaveProperty("key");
    expect(reply.text).not.toMatch(/"hash"/);
  });

  it("409 for a second key of the same name; 400 naming a bad field", async () => {
    const clash = await call<ErrorReply>("POST", `/api/admin/tenants/${slug}/keys`, {
      body: { name: "backend" },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe("conflict");
    const bad = await call<ErrorReply>("POST", `/api/admin/tenants/${slug}/keys`, {
      body: { name: "Bad Name" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_request", path: "name" });
    const extra = await call<ErrorReply>("POST", `/api/admin/tenants/${slug}/keys`, {
      body: { name: "x", color: "red" },
    });
    expect(extra.status).toBe(400);
    expect(extra.body.error.path).toBe("color");
    const notJson = await call<ErrorReply>("POST", `/api/admin/tenants/${slug}/keys`, { body: "{nope" });
    expect(notJson.status).toBe(400);
    const form = await call<ErrorReply>("POST", `/api/admin/tenants/${slug}/keys`, {
      body: "name=x",
      contentType: "application/x-www-form-urlencoded",
    });
    expect(form.status).toBe(415);
  });

  it("revokes a key (audited), and 404 for a key that does not exist", async () => {
    await createKey(slug, "to-revoke");
    const revoked = await call("DELETE", `/api/admin/tenants/${slug}/keys/to-revoke`);
    expect(revoked.status).toBe(200);
    const list = await call<{ keys: KeyRow[] }>("GET", `/api/admin/tenants/${slug}/keys`);
    expect(list.body.keys.find((k) => k.name === "to-revoke")?.revokedAt).toEqual(expect.any(String));
    const missing = await call<ErrorReply>("DELETE", `/api/admin/tenants/${slug}/keys/never-was`);
    expect(missing.status).toBe(404);
    const audit = await call<{
      entries: { action: string; before: unknown; after: { revokedAt?: string } }[];
    }>("GET", `/api/admin/audit?tenant=${slug}&limit=5`);
    const entry = audit.body.entries.find((e) => e.action === "key.revoke");
    expect(entry?.before).toEqual({ revokedAt: null });
    expect(entry?.after.revokedAt).toEqual(expect.any(String));
  });

  it("404 for keys of a tenant that does not exist", async () => {
    const reply = await call<ErrorReply>("GET", "/api/admin/tenants/adm-no-such-tenant/keys");
    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe("not_found");
  });
});

describe("tokens and credentials", () => {
  it("a service token is made (shown once, hashed) and refused on /api/admin with 403", async () => {
    const reply = await call<{ id: string; token: string }>("POST", "/api/admin/service-tokens", {
      body: { name: "adm test checks", tenants: [slug] },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.token).toEqual(expect.any(String));
    expect(await tablesContaining(reply.body.token)).toEqual([]);
    const refused = await call<ErrorReply>("GET", "/api/admin/config", { token: reply.body.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");
  });

  it("an operator admin token works on every admin call; its secret is not stored", async () => {
    const token = await createAdminToken({ name: "adm operator", role: "owner" });
    expect(await tablesContaining(token)).toEqual([]);
    const reply = await call("GET", "/api/admin/config", { token });
    expect(reply.status).toBe(200);
    const key = await call("POST", `/api/admin/tenants/${slug}/keys`, { token, body: { name: "by-token" } });
    expect(key.status).toBe(201);
  });

  it("400 naming the field for a bad token request", async () => {
    const reply = await call<ErrorReply>("POST", "/api/admin/admin-tokens", {
      body: { name: "x", role: "emperor" },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error.path).toBe("role");
  });

  it.each([
    ["no credential", null],
    ["an unknown token", "at_not-a-real-token-at-all-000000000"],
    ["an empty-looking token", "x"],
  ])("401 with %s", async (_label, token) => {
    const reply = await call<ErrorReply>("GET", "/api/admin/config", { token });
    expect(reply.status).toBe(401);
    expect(reply.body.error.code).toBe("unauthorized");
  });

  it("401 for a header that is not a bearer token", async () => {
    const reply = await call<ErrorReply>("GET", "/api/admin/config", {
      token: null,
      headers: { authorization: "Basic YTpi" },
    });
    expect(reply.status).toBe(401);
  });
});
