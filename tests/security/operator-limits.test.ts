// Operators' limits hold for tenant roles, at the DAL every path (admin API, dashboard
// actions) goes through, against the test database and Redis: a tenant's route declarations
// never remove a global route's limit, tenant roles cannot reset counters of imposed
// limits, and renaming, plan and status are checked the same way whichever path changes
// them.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { Principal, Role } from "@/lib/shared/principal";
import type { RouteDoc } from "@/lib/control/config/document";
import { counterState } from "@/lib/control/counters/counters";
import { resetCounter } from "@/lib/control/counters/counter-reset";
import { db } from "@/lib/control/data/db";
import { readGlobalDoc, readTenantDoc } from "@/lib/control/data/edits/document-edit";
import { applyImport } from "@/lib/control/data/edits/import-yaml";
import { updateTenant } from "@/lib/control/data/edits/tenants";
import { ForbiddenError, ValidationFailed } from "@/lib/control/errors/errors";
import { importConfig } from "@/lib/control/data/import-config";

import { anyPlan, makeTenant, system, uniqueSlug } from "../integration/dashboard/fixtures";

const tag = randomBytes(3).toString("hex");
const adminPrefix = `/sec-${tag}/admin`;
const slug = uniqueSlug("sec-op");
let tenantId = "";
let plan = "";
let planLimit = "";
let globalRoutesBefore: RouteDoc[] = [];

const token = (role: Role): Principal => ({
  kind: "admin-token",
  id: `sec-${role}`,
  name: `sec ${role}`,
  tenantId,
  role,
});

async function failure(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: unknown) => error,
  );
}

async function tenantDoc() {
  return readTenantDoc(system, slug, "viewer");
}

beforeAll(async () => {
  plan = await anyPlan();
  globalRoutesBefore = (await readGlobalDoc(system)).routes;
  await importConfig(system, {
    routes: [
      ...globalRoutesBefore,
      {
        pattern: `* ${adminPrefix}/*`,
        limits: [{ name: "admin-calls", by: "tenant", algorithm: "fixed_window", limit: 10, window: "1h" }],
      },
    ],
  });
  tenantId = await makeTenant(slug, plan);
  const planRow = await db().plan.findUniqueOrThrow({ where: { name: plan }, include: { limits: true } });
  planLimit = planRow.limits[0]?.name ?? "";
});

afterAll(async () => {
  await importConfig(system, { routes: globalRoutesBefore });
});

describe("a tenant's routes never remove a global route's limits", () => {
  for (const pattern of [`GET ${adminPrefix}/*`, `GET ${adminPrefix}/:x`]) {
    it(`an editor's route ${pattern.replace(tag, "<tag>")} with no limits keeps admin-calls`, async () => {
      const current = await tenantDoc();
      await importConfig(token("editor"), { tenants: [{ ...current, routes: [{ pattern, limits: [] }] }] });
      const state = await counterState(system, { tenant: slug, route: `GET ${adminPrefix}/users` });
      expect(state.route).toBe(pattern);
      expect(state.limits.map((l) => l.name)).toContain("admin-calls");
    });
  }

  it("an editor cannot override a global route's limit through a same-pattern tenant route", async () => {
    const current = await tenantDoc();
    const pattern = `* ${adminPrefix}/*`;
    const error = await failure(
      importConfig(token("editor"), {
        tenants: [{ ...current, routes: [{ pattern, limits: [{ name: "admin-calls", limit: 1000000 }] }] }],
      }),
    );
    expect(error).toBeInstanceOf(ValidationFailed);
    expect((error as ValidationFailed).errors[0]?.message).toMatch(/imposes admin-calls; only an operator/);
    expect(
      (await counterState(system, { tenant: slug, route: `GET ${adminPrefix}/x` })).limits,
    ).toContainEqual(expect.objectContaining({ name: "admin-calls", limit: 10 }));
  });
});

describe("resetting counters of imposed limits needs an operator", () => {
  it("an editor may not reset a global route's limit (403 naming why)", async () => {
    const error = await failure(
      resetCounter(
        token("editor"),
        { tenant: slug, limit: "admin-calls", route: `GET ${adminPrefix}/a` },
        null,
      ),
    );
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as Error).message).toMatch(
      /Only an operator can reset the counters of admin-calls: it is imposed by global route/,
    );
  });

  it("an editor may not reset a plan limit", async () => {
    if (planLimit === "") return; // a plan without limits: nothing imposed to try
    const error = await failure(resetCounter(token("owner"), { tenant: slug, limit: planLimit }, null));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect((error as Error).message).toContain(`imposed by plan ${plan}`);
  });

  it("an editor may reset the tenant's own limits; an operator may reset imposed ones", async () => {
    await expect(
      resetCounter(token("editor"), { tenant: slug, limit: "own-cap" }, null),
    ).resolves.toMatchObject({
      limit: "own-cap",
    });
    await expect(
      resetCounter(system, { tenant: slug, limit: "admin-calls", route: `GET ${adminPrefix}/a` }, null),
    ).resolves.toMatchObject({ limit: "admin-calls" });
  });
});

describe("renaming, plan and status: the same rights on every path", () => {
  const renamed = (name: string) => async () => ({ ...(await tenantDoc()), name });

  it("admin API import: an editor cannot rename the tenant", async () => {
    const error = await failure(importConfig(token("editor"), { tenants: [await renamed("Hijacked")()] }));
    expect(error).toBeInstanceOf(ValidationFailed);
    expect((error as ValidationFailed).errors).toContainEqual(
      expect.objectContaining({ path: "tenants[0].name", message: expect.stringMatching(/owner/) }),
    );
    expect((await tenantDoc()).name).toBe(`Tenant ${slug}`);
  });

  it("dashboard YAML import: an admin cannot rename either", async () => {
    const text = `tenants:\n  - slug: ${slug}\n    name: Hijacked\n    plan: ${plan}\n`;
    const error = await failure(applyImport(token("admin"), text));
    expect(error).toBeInstanceOf(ValidationFailed);
    expect((await tenantDoc()).name).toBe(`Tenant ${slug}`);
  });

  it("settings form: an editor is refused; the owner renames", async () => {
    const input = { slug, name: "Renamed", plan, status: "active" as const };
    expect(await failure(updateTenant(token("editor"), input))).toBeInstanceOf(ForbiddenError);
    await updateTenant(token("owner"), input);
    expect((await tenantDoc()).name).toBe("Renamed");
  });

  it("an owner cannot change the plan or suspend the tenant through a document", async () => {
    const current = await tenantDoc();
    const other = await db().plan.findFirst({ where: { name: { not: plan } }, select: { name: true } });
    const error = await failure(
      importConfig(token("owner"), {
        tenants: [{ ...current, plan: other?.name ?? plan, status: "suspended" }],
      }),
    );
    expect(error).toBeInstanceOf(ValidationFailed);
    const paths = (error as ValidationFailed).errors.map((e) => e.path);
    expect(paths).toEqual(other ? ["tenants[0].plan", "tenants[0].status"] : ["tenants[0].status"]);
    expect(await tenantDoc()).toMatchObject({ status: "active", plan });
  });

  it("a tenant role cannot touch plans or global routes", async () => {
    const error = await failure(importConfig(token("owner"), { routes: [] }));
    expect(error).toBeInstanceOf(ForbiddenError);
  });
});
