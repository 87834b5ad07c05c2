import { describe, expect, it } from "vitest";
import type { Principal } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import { createOverride } from "@/lib/control/data/overrides";
import { exportConfig } from "@/lib/control/data/export-config";
import { importConfig } from "@/lib/control/data/import-config";
import { ValidationFailed } from "@/lib/control/errors/errors";
import { tester } from "./setup";
import { post } from "./http";
import { withOverrideTenants } from "./overrides-support";

// Who may set temporary overrides (docs/overrides.md) and how they travel in the
// configuration document. Hostile input is refused with the field named and changes nothing.

const t = withOverrideTenants();
const { slug, other } = t;

describe("hostile input is refused, naming the field, and changes nothing", () => {
  const count = () => db().override.count({ where: { tenantId: t.tenantId } });
  const auditCount = () =>
    db().auditEntry.count({ where: { tenantId: t.tenantId, action: "override.create" } });
  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

  it.each([
    ["another tenant's key", { key: "theirs" }, "key"],
    ["an unknown limit", { limit: "nope" }, "limit"],
    ["a subject override of a limit not counted by subject", { subject: "x", limit: "few" }, "limit"],
    [
      "an end before the start",
      { startsAt: inAnHour(), endsAt: new Date(Date.now() + 60_000).toISOString() },
      "endsAt",
    ],
    ["an end years away", { endsAt: "2031-01-01T00:00:00Z" }, "endsAt"],
    ["a start in the past", { startsAt: "2020-01-01T00:00:00Z" }, "startsAt"],
    ["a huge reason", { reason: "x".repeat(10_000) }, "reason"],
    ["no reason", { reason: "  " }, "reason"],
    ["a negative limit", { value: -1 }, "value"],
    ["a key and a subject", { key: "batch", subject: "x" }, "subject"],
    ["an unknown field", { tenantId: "x" }, ""],
  ])("%s", async (_label, change, path) => {
    const [before, audits] = [await count(), await auditCount()];
    const reply = await post<{ error: { code: string; path?: string } }>("/api/admin/overrides", {
      tenant: slug,
      limit: "few",
      value: 50,
      endsAt: inAnHour(),
      reason: "x",
      ...change,
    });
    expect(reply.status).toBe(400);
    if (path !== "") expect(reply.body.error.path).toBe(path);
    expect(await count()).toBe(before);
    expect(await auditCount()).toBe(audits);
  });

  const token = (role: "viewer" | "editor", tenant = t.tenantId): Principal => ({
    kind: "admin-token",
    id: `t-${role}`,
    name: role,
    tenantId: tenant,
    role,
  });
  const input = (limit: string) => ({ tenant: slug, limit, value: 9, endsAt: inAnHour(), reason: "r" });

  it("a viewer may not create one; an editor may not override a plan's limit; another tenant's role sees nothing", async () => {
    const before = await count();
    await expect(createOverride(token("viewer"), input("few"), null)).rejects.toThrow(/editor/);
    await expect(createOverride(token("editor"), input("plan-cap"), null)).rejects.toThrow(/operator/);
    const otherId = (await db().tenant.findUniqueOrThrow({ where: { slug: other }, select: { id: true } }))
      .id;
    await expect(createOverride(token("editor", otherId), input("few"), null)).rejects.toThrow(/No tenant/);
    expect(await count()).toBe(before);
    // an operator may (the bootstrap token is one)
    const ok = await post("/api/admin/overrides", { ...input("plan-cap"), endsAt: inAnHour() });
    expect(ok.status).toBe(201);
  });

  it("another tenant's override id is not found; a tenant role may not list every tenant's", async () => {
    const otherId = (await db().tenant.findUniqueOrThrow({ where: { slug: other }, select: { id: true } }))
      .id;
    const mine = await db().override.findFirstOrThrow({
      where: { tenantId: t.tenantId },
      select: { id: true },
    });
    const { endOverride } = await import("@/lib/control/data/overrides");
    await expect(endOverride(token("editor", otherId), mine.id, null)).rejects.toThrow(
      `No override ${mine.id}`,
    );
    const { listOverrides } = await import("@/lib/control/data/override-list");
    await expect(listOverrides(token("viewer"), {})).rejects.toThrow(/operator/);
    expect((await listOverrides(token("viewer"), { tenant: slug })).overrides.length).toBeGreaterThan(0);
  });
});

describe("overrides in the configuration document", () => {
  it("are exported with their times; importing the export changes nothing; a restore brings one back", async () => {
    const exported = await exportConfig(tester);
    const mine = (exported.overrides ?? []).filter((o) => o.tenant === slug);
    expect(mine.length).toBeGreaterThan(0);
    for (const o of mine) expect(Date.parse(o.endsAt)).toBeGreaterThan(Date.now());
    // this tenant's part only: other files change their tenants meanwhile
    const again = await importConfig(tester, {
      tenants: exported.tenants?.filter((t) => t.slug === slug),
      overrides: mine,
    });
    expect(again.changes.filter((c) => c.target === "override")).toEqual([]);
    // a document's override this database does not hold is created, audited
    const endsAt = new Date(Date.now() + 600_000).toISOString();
    const restored = await importConfig(tester, {
      tenants: exported.tenants?.filter((t) => t.slug === slug),
      overrides: [
        {
          tenant: slug,
          limit: "few",
          value: 4,
          startsAt: new Date().toISOString(),
          endsAt,
          reason: "restored",
          key: "batch",
        },
      ],
    });
    expect(restored.changes).toEqual([expect.objectContaining({ action: "create", target: "override" })]);
    const id = restored.changes[0]?.name ?? "";
    expect(await db().auditEntry.count({ where: { targetId: id, action: "override.create" } })).toBe(1);
  });

  it("refuses a document's override beyond 90 days or of an unknown limit, naming it, and changes nothing", async () => {
    const before = await db().override.count();
    const attempt = importConfig(tester, {
      tenants: (await exportConfig(tester)).tenants?.filter((t) => t.slug === slug),
      overrides: [
        {
          tenant: slug,
          limit: "few",
          value: 4,
          startsAt: new Date().toISOString(),
          endsAt: "2031-01-01T00:00:00Z",
          reason: "r",
        },
        {
          tenant: slug,
          limit: "nope",
          value: 4,
          startsAt: new Date().toISOString(),
          endsAt: new Date(Date.now() + 60_000).toISOString(),
          reason: "r",
        },
      ],
    });
    await expect(attempt).rejects.toBeInstanceOf(ValidationFailed);
    const error = (await attempt.catch((e: unknown) => e)) as ValidationFailed;
    expect(error.errors.map((e) => e.path)).toEqual(["overrides[0].endsAt", "overrides[1].limit"]);
    expect(await db().override.count()).toBe(before);
  });
});
