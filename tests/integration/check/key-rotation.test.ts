import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeClients, FREE_PLAN_OFF, setupTenants, unique } from "./setup";
import { decide, waitForVersion } from "./http";
import { call, createAdminToken, type ErrorReply } from "../admin/http";
import { waitFor } from "../../wait-for";

// Key rotation through the real check path: after POST .../keys/{name}/rotate both secrets
// are the same key (same counters, same limits) until the grace period ends; then the old
// one answers revoked_key. A second rotation drops the first secret (unknown_key). Over the
// admin API: editors and up, another tenant's key is 404, bad bodies name the field.

const slug = unique("rot");
const other = unique("rot-other");
let keys: Record<string, string> = {};

interface Rotated {
  id: string;
  name: string;
  key: string;
  prefix: string;
  previousPrefix: string;
  previousUntil: string;
}

beforeAll(async () => {
  const perKey = {
    name: "per-key",
    by: "key" as const,
    algorithm: "fixed_window" as const,
    limit: 50,
    window: "1h",
  };
  const setup = await setupTenants(
    [
      { slug, plan: "free", limits: [...FREE_PLAN_OFF, perKey] },
      { slug: other, plan: "free", limits: [...FREE_PLAN_OFF] },
    ],
    {
      keysWithoutLimits: [
        { tenant: slug, name: "backend" },
        { tenant: slug, name: "gone" },
        { tenant: other, name: "theirs" },
      ],
    },
  );
  keys = setup.keys;
  await waitForVersion(setup.version);
});

afterAll(closeClients);

async function rotate(name: string, graceSeconds: number): Promise<Rotated> {
  const reply = await call<Rotated>("POST", `/api/admin/tenants/${slug}/keys/${name}/rotate`, {
    body: { graceSeconds },
  });
  if (reply.status !== 200) throw new Error(`rotate: ${reply.status} ${reply.text}`);
  return reply.body;
}

/** Waits until `apiKey` is answered with `reason` (dry runs: no counter is taken). */
async function waitForReason(apiKey: string, reason: string): Promise<void> {
  await waitFor(
    async () => (await decide({ apiKey, dryRun: true })).reason === reason,
    `${apiKey.slice(0, 8)}… answered ${reason}`,
  );
}

describe("key rotation", () => {
  it("during the grace both secrets are the same key, counted together; after it the old one is revoked", async () => {
    const first = keys[`${slug}/backend`] as string;
    const second = await rotate("backend", 3600);
    expect(second.name).toBe("backend");
    expect(second.key.startsWith(second.prefix)).toBe(true);
    expect(first.startsWith(second.previousPrefix)).toBe(true);
    expect(Date.parse(second.previousUntil) - Date.now()).toBeGreaterThan(3500_000);
    await waitForReason(second.key, "ok");

    const byOld = await decide({ apiKey: first });
    const byNew = await decide({ apiKey: second.key });
    expect(byOld).toMatchObject({ allowed: true, tenant: slug, key: "backend", limit: 50 });
    expect(byNew).toMatchObject({ allowed: true, tenant: slug, key: "backend", limit: 50 });
    // one counter: the second check sees the first one's use
    expect(byNew.remaining).toBe((byOld.remaining as number) - 1);

    // a second rotation with a short grace: the first secret is dropped at once, the second
    // works until the grace ends and is then refused as revoked
    const third = await rotate("backend", 3);
    await waitForReason(third.key, "ok");
    expect((await decide({ apiKey: first, dryRun: true })).reason).toBe("unknown_key");
    await waitForReason(second.key, "revoked_key");
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(third.previousUntil));
    const byThird = await decide({ apiKey: third.key });
    expect(byThird).toMatchObject({ allowed: true, key: "backend" });
    expect(byThird.remaining).toBe((byNew.remaining as number) - 1);
  });

  it("is audited as key.rotate with both prefixes, never a secret", async () => {
    const audit = await call<{
      entries: { action: string; before: unknown; after: Record<string, unknown> }[];
    }>("GET", `/api/admin/audit?tenant=${slug}&limit=20`);
    const entry = audit.body.entries.find((e) => e.action === "key.rotate");
    expect(entry?.after).toMatchObject({ prefix: expect.any(String), previousUntil: expect.any(String) });
    expect(entry?.before).toEqual({ prefix: expect.any(String) });
    expect(audit.text).not.toContain(keys[`${slug}/backend`] as string);
  });

  it("the key list shows the old secret's prefix and the end of its grace", async () => {
    const list = await call<{
      keys: { name: string; previousPrefix: string | null; previousUntil: string | null }[];
    }>("GET", `/api/admin/tenants/${slug}/keys`);
    const backend = list.body.keys.find((k) => k.name === "backend");
    expect(backend?.previousPrefix).toEqual(expect.any(String));
    expect(backend?.previousUntil).toEqual(expect.any(String));
    expect(list.body.keys.find((k) => k.name === "gone")).toMatchObject({
      previousPrefix: null,
      previousUntil: null,
    });
  });

  it("refuses a viewer (403), another tenant's key (404), a revoked key (409) and a bad grace (400)", async () => {
    const viewer = await createAdminToken({ name: unique("rot viewer"), role: "viewer", tenant: slug });
    const path = `/api/admin/tenants/${slug}/keys/backend/rotate`;
    const refused = await call<ErrorReply>("POST", path, { token: viewer, body: { graceSeconds: 60 } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain("editor");

    const stranger = await createAdminToken({ name: unique("rot stranger"), role: "owner", tenant: other });
    const hidden = await call<ErrorReply>("POST", path, { token: stranger, body: { graceSeconds: 60 } });
    expect(hidden.status).toBe(404);
    // another tenant's key through this tenant's path is no key of this tenant
    const theirs = await call<ErrorReply>("POST", `/api/admin/tenants/${slug}/keys/theirs/rotate`, {
      body: { graceSeconds: 60 },
    });
    expect(theirs.status).toBe(404);

    await call("DELETE", `/api/admin/tenants/${slug}/keys/gone`);
    const revoked = await call<ErrorReply>("POST", `/api/admin/tenants/${slug}/keys/gone/rotate`, {
      body: { graceSeconds: 60 },
    });
    expect(revoked.status).toBe(409);
    expect(revoked.body.error.message).toContain("revoked");

    for (const graceSeconds of [-1, 604_801, 1.5, "60"]) {
      const bad = await call<ErrorReply>("POST", path, { body: { graceSeconds } });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: "invalid_request", path: "graceSeconds" });
    }
    // nothing changed: the newest secret still works, the theirs key is untouched
    expect((await decide({ apiKey: keys[`${other}/theirs`], dryRun: true })).reason).toBe("ok");
  });
});
