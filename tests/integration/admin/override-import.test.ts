import { beforeAll, describe, expect, it } from "vitest";
import {
  anyPlan,
  call,
  createAdminToken,
  exportJson,
  importJson,
  putTenants,
  uniqueSlug,
  type Doc,
} from "./http";

// Overrides in an imported document (PUT /api/admin/config) obey what POST
// /api/admin/overrides obeys: at most 100 in force or waiting per tenant and no two of the
// same limit and target at once, refused (422) naming overrides[i] with nothing changed; who made
// one is the importer, whatever the document says; a tenant's export carries its overrides,
// so exporting and importing back changes nothing. Against the running app.

const slug = uniqueSlug("ovr-imp");
let admin = "";
let mine: Doc["tenants"] = [];

interface Listed {
  id: string;
  subject: string | null;
  createdBy: string;
}

const hours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
const override = (subject: string, from = 0, to = 2) => ({
  tenant: slug,
  subject,
  limit: "per-ip",
  value: 50,
  startsAt: hours(from),
  endsAt: hours(to),
  reason: "import test",
});

async function listed(): Promise<Listed[]> {
  const reply = await call<{ overrides: Listed[] }>("GET", `/api/admin/overrides?tenant=${slug}`);
  expect(reply.status).toBe(200);
  return reply.body.overrides;
}

/** A tenant-scoped import holds its own tenant, as exported, beside the overrides. */
const importOverrides = (overrides: unknown[]) => importJson({ tenants: mine, overrides } as Doc, "", admin);

const pathsOf = (body: { errors?: { path: string }[]; error: { path?: string } }): string[] =>
  body.errors?.map((e) => e.path) ?? [body.error.path ?? ""];

beforeAll(async () => {
  const limit = { name: "per-ip", by: "subject", algorithm: "token_bucket", limit: 5, window: "1h" };
  await putTenants([{ slug, plan: await anyPlan(), limits: [limit] }]);
  admin = await createAdminToken({ name: "ovr importer", role: "admin", tenant: slug });
  mine = (await exportJson(admin)).tenants;
});

describe("importing overrides", () => {
  it("refuses more than 100 in force or waiting for a tenant, naming the first past the cap", async () => {
    const many = Array.from({ length: 101 }, (_, i) => override(`s-${i}`));
    const reply = await importOverrides(many);
    expect(reply.status).toBe(422);
    expect(pathsOf(reply.body)).toEqual(["overrides[100].tenant"]);
    expect(await listed()).toEqual([]);
  });

  it("counts the overrides already held toward the cap", async () => {
    const made = await call("POST", "/api/admin/overrides", { token: admin, body: override("held") });
    expect(made.status).toBe(201);
    const reply = await importOverrides(Array.from({ length: 100 }, (_, i) => override(`t-${i}`)));
    expect(reply.status).toBe(422);
    expect(pathsOf(reply.body)).toEqual(["overrides[99].tenant"]);
    expect((await listed()).map((o) => o.subject)).toEqual(["held"]);
  });

  it("refuses two of the same limit and target at once, in the document or against one held", async () => {
    const inDocument = await importOverrides([override("twice", 0, 2), override("twice", 1, 3)]);
    expect(inDocument.status).toBe(422);
    expect(pathsOf(inDocument.body)).toEqual(["overrides[1].startsAt"]);
    const againstHeld = await importOverrides([override("fresh"), override("held", 1, 3)]);
    expect(againstHeld.status).toBe(422);
    expect(pathsOf(againstHeld.body)).toEqual(["overrides[1].startsAt"]);
    expect((await listed()).map((o) => o.subject)).toEqual(["held"]);
    // one after the other is no overlap
    const after = await importOverrides([override("twice", 0, 1), override("twice", 1, 2)]);
    expect(after.status).toBe(200);
  });

  it("records the importer as the maker; a createdBy in the document is ignored", async () => {
    const reply = await importOverrides([{ ...override("forged"), createdBy: "admin@sluice.local" }]);
    expect(reply.status).toBe(200);
    const made = (await listed()).find((o) => o.subject === "forged");
    expect(made?.createdBy).toBe("token ovr importer");
  });

  it("a tenant's export carries its overrides, and importing it back changes nothing", async () => {
    const exported = await exportJson(admin);
    const subjects = (exported as { overrides?: { subject?: string }[] }).overrides?.map((o) => o.subject);
    expect(subjects?.sort()).toEqual(["forged", "held", "twice", "twice"]);
    const before = await listed();
    const reply = await importJson(exported, "", admin);
    expect(reply.status).toBe(200);
    expect(reply.body.changes).toEqual([]);
    expect(await listed()).toEqual(before);
  });
});
