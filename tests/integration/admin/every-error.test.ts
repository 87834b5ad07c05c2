// An import answers every error of the document at once (DAL, real PostgreSQL): keys past
// the per-tenant cap (an import makes the keys a document names) are reported beside its
// shape errors. A tenant-scoped principal hears nothing about the keys of a tenant it
// cannot see.
process.env.SLUICE_MAX_KEYS_PER_TENANT = "1"; // read once, on the first import below
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ValidationFailed } from "@/lib/control/errors/errors";
import { importConfig } from "@/lib/control/data/import-config";
import { closeClients, FREE_PLAN_OFF, setupTenants, tester, unique } from "../check/setup";

const mine = unique("ee-mine");
const other = unique("ee-other");
let mineId = "";

async function errorsOf(promise: Promise<unknown>): Promise<{ path: string; message: string }[]> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationFailed);
  return (error as ValidationFailed).errors;
}

beforeAll(async () => {
  await setupTenants([
    { slug: mine, plan: "free", limits: FREE_PLAN_OFF },
    { slug: other, plan: "free", limits: FREE_PLAN_OFF },
  ]);
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const { rows } = await client.query<{ id: string }>('select id from "Tenant" where slug = $1', [mine]);
  await client.end();
  mineId = rows[0]!.id;
});

afterAll(closeClients);

const badWindow = { name: "w", by: "tenant", algorithm: "gcra", limit: 1, window: "0s" };
const ghostKey = {
  name: "ghost",
  limits: [{ name: "k", by: "key", algorithm: "gcra", limit: 1, window: "1s" }],
};
const keys = [ghostKey, { name: "ghost-2" }]; // one more than the cap of 1

describe("every error in one answer", () => {
  it("keys past the cap are reported beside a shape error", async () => {
    const errors = await errorsOf(
      importConfig(tester, { tenants: [{ slug: mine, plan: "free", limits: [badWindow], keys }] }),
    );
    expect(errors.map((e) => e.path)).toEqual(["tenants[0].keys", "tenants[0].limits[0].window"]);
    expect(errors[0]?.message).toMatch(/at most 1 per tenant/);
  });

  it("keys past the cap alone are still reported", async () => {
    const errors = await errorsOf(
      importConfig(tester, { tenants: [{ slug: mine, plan: "free", limits: FREE_PLAN_OFF, keys }] }),
    );
    expect(errors.map((e) => e.path)).toEqual(["tenants[0].keys"]);
  });

  it("a tenant-scoped principal learns nothing of another tenant's keys", async () => {
    const token = { kind: "admin-token", id: "t", name: "t", tenantId: mineId, role: "owner" } as const;
    const errors = await errorsOf(
      importConfig(token, {
        tenants: [{ slug: other, plan: "free", limits: [badWindow], keys }],
      }),
    );
    expect(errors.map((e) => e.path)).toEqual(["tenants[0].limits[0].window"]);
  });
});
