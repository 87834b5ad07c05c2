// Keys made by an import (DAL, real PostgreSQL and Redis): the secret is in the answer once
// and the published configuration knows it, a dry run makes nothing, names and caps are
// checked with the field named, an editor of one tenant makes none in another, and the
// export lists bare keys but never a secret.
process.env.SLUICE_MAX_KEYS_PER_TENANT = "3"; // read once, on the first import below
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestPublished } from "@/lib/control/data/config-versions";
import { NotFoundError, ValidationFailed } from "@/lib/control/errors/errors";
import { exportConfig } from "@/lib/control/data/export-config";
import { importConfig } from "@/lib/control/data/import-config";
import { closeClients, setupTenants, tester, unique } from "../check/setup";
import { withDatabase } from "./database";

const fresh = unique("ik-fresh");
const other = unique("ik-other");
const mine = unique("ik-mine");
let mineId = "";

async function keyNames(slug: string): Promise<string[]> {
  return withDatabase(async (client) => {
    const { rows } = await client.query<{ name: string }>(
      'select k.name from "ApiKey" k join "Tenant" t on t.id = k."tenantId" where t.slug = $1 order by k.name',
      [slug],
    );
    return rows.map((r) => r.name);
  });
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

beforeAll(async () => {
  await setupTenants([
    { slug: other, plan: "free" },
    { slug: mine, plan: "free" },
  ]);
  mineId = await withDatabase(async (client) => {
    const { rows } = await client.query<{ id: string }>('select id from "Tenant" where slug = $1', [mine]);
    return rows[0]!.id;
  });
});

afterAll(closeClients);

describe("keys in the configuration document", () => {
  it("a dry run lists the keys it would make, without ids or secrets, and makes none", async () => {
    const result = await importConfig(
      tester,
      { tenants: [{ slug: fresh, plan: "free", keys: [{ name: "backend" }] }] },
      { dryRun: true },
    );
    expect(result.configVersion).toBeNull();
    expect(result.createdKeys).toEqual([{ tenant: fresh, name: "backend" }]);
    expect(result.changes).toContainEqual({ action: "create", target: "key", name: `${fresh}/backend` });
    expect(await keyNames(fresh)).toEqual([]);
  });

  it("an import makes the keys a tenant names, shows each secret once and publishes it", async () => {
    const limit = { name: "k-rps", by: "key", algorithm: "gcra", limit: 5, window: "1s" };
    const result = await importConfig(tester, {
      tenants: [
        { slug: fresh, plan: "free", keys: [{ name: "backend", limits: [limit] }, { name: "mobile" }] },
      ],
    });
    expect(result.configVersion).not.toBeNull();
    expect(result.createdKeys.map((k) => [k.tenant, k.name])).toEqual([
      [fresh, "backend"],
      [fresh, "mobile"],
    ]);
    const published = await latestPublished();
    if (!published) throw new Error("no config version");
    for (const key of result.createdKeys) {
      expect(key.secret).toMatch(/^sk_/);
      const hash = createHash("sha256")
        .update(key.secret ?? "")
        .digest("hex");
      expect(published.keys[hash]).toMatchObject({ tenant: fresh, name: key.name, revoked: false });
    }
    const audited = await withDatabase(async (client) => {
      const { rows } = await client.query<{ targetId: string }>(
        `select "targetId" from "AuditEntry" where action = 'key.create' and "configVersion" = $1 order by id`,
        [result.configVersion],
      );
      return rows.map((r) => r.targetId);
    });
    expect(audited).toEqual(result.createdKeys.map((k) => k.id));
    // imported again: nothing new
    const again = await importConfig(tester, {
      tenants: [
        { slug: fresh, plan: "free", keys: [{ name: "backend", limits: [limit] }, { name: "mobile" }] },
      ],
    });
    expect(again).toEqual({ configVersion: null, changes: [], createdKeys: [] });
  });

  it("the export lists the bare key and holds no secret", async () => {
    const text = JSON.stringify(await exportConfig(tester));
    expect(text).not.toMatch(/sk_/);
    const tenant = (await exportConfig(tester)).tenants?.find((t) => t.slug === fresh);
    expect(tenant?.keys.map((k) => k.name)).toEqual(["backend", "mobile"]);
  });

  it("a bad key name is an error naming the field, and nothing is made", async () => {
    const error = await failure(
      importConfig(tester, { tenants: [{ slug: other, plan: "free", keys: [{ name: "Bad Name" }] }] }),
    );
    expect(error).toBeInstanceOf(ValidationFailed);
    expect((error as ValidationFailed).errors.map((e) => e.path)).toEqual(["tenants[0].keys[0].name"]);
    expect(await keyNames(other)).toEqual([]);
  });

  it("past the per-tenant cap: an error on the tenant's keys, and none of them is made", async () => {
    const keys = ["a", "b", "c", "d"].map((name) => ({ name }));
    const error = await failure(importConfig(tester, { tenants: [{ slug: other, plan: "free", keys }] }));
    expect(error).toBeInstanceOf(ValidationFailed);
    expect((error as ValidationFailed).errors).toEqual([
      { path: "tenants[0].keys", message: expect.stringMatching(/at most 3 per tenant/) },
    ]);
    expect(await keyNames(other)).toEqual([]);
  });

  it("an editor of one tenant cannot make keys in another", async () => {
    const editor = { kind: "admin-token", id: "t", name: "t", tenantId: mineId, role: "editor" } as const;
    const error = await failure(
      importConfig(editor, { tenants: [{ slug: other, plan: "free", keys: [{ name: "sneaky" }] }] }),
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(await keyNames(other)).toEqual([]);
    // in its own tenant it may
    const own = await importConfig(editor, {
      tenants: [{ slug: mine, plan: "free", keys: [{ name: "own" }] }],
    });
    expect(own.createdKeys.map((k) => k.name)).toEqual(["own"]);
  });

  it("a viewer's token cannot make keys even in its own tenant", async () => {
    const viewer = { kind: "admin-token", id: "v", name: "v", tenantId: mineId, role: "viewer" } as const;
    const error = await failure(
      importConfig(viewer, { tenants: [{ slug: mine, plan: "free", keys: [{ name: "viewer-key" }] }] }),
    );
    expect(error).toBeInstanceOf(Error);
    expect(await keyNames(mine)).toEqual(["own"]);
  });
});
