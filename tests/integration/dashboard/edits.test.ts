// The dashboard's DAL edits and read models against real PostgreSQL (and Redis for the
// publish): limits saved at each level show up in the hierarchy with the right state, role
// rules hold, and YAML previews report errors with paths or a before/after without writing.
import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/shared/principal";
import { ConflictError, ForbiddenError } from "@/lib/control/errors/errors";
import { saveLimit, LimitValidationFailed } from "@/lib/control/edits/save-limit";
import { addTenantRoute } from "@/lib/control/edits/routes";
import { previewImport, applyImport } from "@/lib/control/data/edits/import-yaml";
import { createTenant } from "@/lib/control/data/edits/tenants";
import { tenantDetail } from "@/lib/control/data/queries/tenant-detail";
import { limitHierarchy } from "@/lib/control/limit-tree/limit-hierarchy";
import { listTenants } from "@/lib/control/data/queries/list-tenants";
import { changeMemberRole, listMembers } from "@/lib/control/data/members";
import { acceptAsNewAccount, createInvitation } from "@/lib/control/data/invitations";
import { db } from "@/lib/control/data/db";
import { anyPlan, makeMember, makeTenant, system, uniqueSlug } from "./fixtures";

const slug = uniqueSlug("dash-edit");
let plan = "";
let editor: Principal;
let viewer: Principal;
let admin: Principal;
let tenantId = "";

beforeAll(async () => {
  plan = await anyPlan();
  const id = await makeTenant(slug, plan);
  tenantId = id;
  editor = await makeMember(`${slug}@editor.test`, id, "editor");
  viewer = await makeMember(`${slug}@viewer.test`, id, "viewer");
  admin = await makeMember(`${slug}@admin.test`, id, "admin");
});

const cap = {
  name: "new-cap",
  by: "tenant" as const,
  algorithm: "token_bucket" as const,
  limit: 20,
  window: "1s",
};

describe("limits", () => {
  it("an editor adds a tenant limit; the hierarchy shows it declared here, audited and versioned", async () => {
    const saved = await saveLimit(
      editor,
      { kind: "tenant", tenant: slug },
      { originalName: null, limit: cap },
    );
    expect(saved.configVersion).toBeGreaterThan(0);
    const rows = limitHierarchy(await tenantDetail(editor, slug)).tenant;
    expect(rows.find((r) => r.name === "new-cap")).toMatchObject({
      state: "own",
      effective: { limit: 20, windowMs: 1000 },
    });
    const audit = await db().auditEntry.findFirst({
      where: { configVersion: saved.configVersion },
      orderBy: { id: "desc" },
    });
    expect(audit).toMatchObject({ action: "tenant.update", actorLabel: `${slug}@editor.test` });
  });

  it("a key override is shown on the key as overridden, with the tenant as its base", async () => {
    await saveLimit(
      editor,
      { kind: "key", tenant: slug, key: "k1" },
      { originalName: null, limit: { name: "new-cap", limit: 99 } },
    );
    const keys = limitHierarchy(await tenantDetail(editor, slug)).keys;
    const row = keys.find((k) => k.key === "k1")?.rows.find((r) => r.name === "new-cap");
    expect(row).toMatchObject({ state: "overridden", effective: { limit: 99, algorithm: "token_bucket" } });
    expect(row?.steps.map((s) => s.level)).toEqual(["tenant", "key"]);
  });

  it("invalid values come back with the limit's own document path", async () => {
    const error = await saveLimit(
      editor,
      { kind: "tenant", tenant: slug },
      { originalName: null, limit: { name: "half", by: "tenant", limit: 5 } },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LimitValidationFailed);
    const failed = error as LimitValidationFailed;
    expect(failed.errors.some((e) => e.path.startsWith(failed.fieldPath))).toBe(true);
  });

  it("a duplicate name is a conflict on the name field", async () => {
    await expect(
      saveLimit(editor, { kind: "tenant", tenant: slug }, { originalName: null, limit: cap }),
    ).rejects.toBeInstanceOf(ConflictError);
  });

  it("a viewer cannot save, delete or add routes (ForbiddenError), and nothing changes", async () => {
    const before = await db().limit.count({ where: { tenant: { slug } } });
    await expect(
      saveLimit(viewer, { kind: "tenant", tenant: slug }, { originalName: "new-cap", limit: null }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(addTenantRoute(viewer, slug, "GET /viewer")).rejects.toBeInstanceOf(ForbiddenError);
    expect(await db().limit.count({ where: { tenant: { slug } } })).toBe(before);
  });

  it("members cannot touch plans, nor create tenants", async () => {
    await expect(
      saveLimit(admin, { kind: "plan", plan }, { originalName: null, limit: cap }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(createTenant(admin, { slug: uniqueSlug("nope"), name: "x", plan })).rejects.toBeInstanceOf(
      ForbiddenError,
    );
  });

  it("deleting a tenant limit removes it", async () => {
    await saveLimit(
      editor,
      { kind: "key", tenant: slug, key: "k1" },
      { originalName: "new-cap", limit: null },
    );
    await saveLimit(editor, { kind: "tenant", tenant: slug }, { originalName: "new-cap", limit: null });
    const rows = limitHierarchy(await tenantDetail(editor, slug)).tenant;
    expect(rows.some((r) => r.name === "new-cap")).toBe(false);
  });
});

describe("read models", () => {
  it("listTenants shows a member only its tenants, with its role", async () => {
    const rows = await listTenants(viewer);
    expect(rows.map((r) => [r.slug, r.role])).toEqual([[slug, "viewer"]]);
    expect((await listTenants(system)).some((r) => r.slug === slug)).toBe(true);
  });
});

describe("members", () => {
  it("an admin invites a member but cannot grant owner, nor change an owner", async () => {
    await expect(
      createInvitation(admin, slug, { email: `${slug}-o@x.test`, role: "owner" }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    const invited = await createInvitation(admin, slug, { email: `${slug}-new@x.test`, role: "editor" });
    await acceptAsNewAccount(invited.secret, { name: "New", password: "a-long-enough-password" });
    const members = await listMembers(admin, slug);
    const added = members.find((m) => m.email === `${slug}-new@x.test`);
    expect(added?.role).toBe("editor");
    await expect(
      changeMemberRole(admin, slug, { userId: added?.userId ?? "", role: "owner" }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      createInvitation(editor, slug, { email: `${slug}-e@x.test`, role: "viewer" }),
    ).rejects.toBeInstanceOf(ForbiddenError);
  });
});

describe("YAML import preview", () => {
  it("lists every error with its path and writes nothing", async () => {
    const versions = await db().configVersion.count();
    const preview = await previewImport(
      system,
      `tenants:\n  - slug: ${slug}\n    plan: ${plan}\n    limits:\n      - { name: x, by: tenant, algorithm: nope, limit: 0, window: 1s }\n`,
    );
    expect(preview.ok).toBe(false);
    if (preview.ok) return;
    expect(preview.errors.map((e) => e.path)).toEqual(
      expect.arrayContaining(["tenants[0].limits[0].algorithm", "tenants[0].limits[0].limit"]),
    );
    expect(await db().configVersion.count()).toBe(versions);
  });

  it("a YAML syntax error is an error with a path, not a crash", async () => {
    const preview = await previewImport(system, "tenants: [\n");
    expect(preview.ok).toBe(false);
  });

  it("shows the change and a before/after of just the tenant, then applies it", async () => {
    const text = `tenants:\n  - slug: ${slug}\n    name: Renamed\n    plan: ${plan}\n`;
    // renaming is the owner's, whichever path it takes (no back door): an editor is refused
    expect(await previewImport(editor, text)).toMatchObject({
      ok: false,
      errors: [{ path: "tenants[0].name", message: expect.stringMatching(/owner/) }],
    });
    const owner = await makeMember(`${slug}@owner.test`, tenantId, "owner");
    const preview = await previewImport(owner, text);
    expect(preview).toMatchObject({
      ok: true,
      changes: [{ action: "update", target: "tenant", name: slug }],
    });
    if (!preview.ok) return;
    expect(preview.before).toContain(`name: Tenant ${slug}`);
    expect(preview.after).toContain("name: Renamed");
    expect((await tenantDetail(editor, slug)).name).toBe(`Tenant ${slug}`);
    const applied = await applyImport(owner, text);
    expect(applied.changes).toHaveLength(1);
    expect((await tenantDetail(editor, slug)).name).toBe("Renamed");
  });
});
