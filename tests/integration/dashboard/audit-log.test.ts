// The audit log as the dashboard reads it, against real PostgreSQL: targets by name, a
// limit edit as a field-level diff, filters (tenant, actor, kind, time) and paging, and a
// member never reading another tenant's entries through a filter.
import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/shared/principal";
import { createApiKey } from "@/lib/control/data/api-keys";
import { saveLimit } from "@/lib/control/edits/save-limit";
import { NotFoundError } from "@/lib/control/errors/errors";
import { listAuditEntries } from "@/lib/control/data/queries/audit-entries";
import { listAudit } from "@/lib/control/data/audit-log";
import { createOverride } from "@/lib/control/data/overrides";
import { parseAuditFilter } from "@/lib/control/audit/audit-filter";
import { fieldDiff } from "@/components/audit/field-diff";
import { anyPlan, makeMember, makeTenant, system, uniqueSlug } from "./fixtures";

const slug = uniqueSlug("audit-log");
const other = uniqueSlug("audit-other");
let editor: Principal;
const cap = {
  name: "cap",
  by: "tenant" as const,
  algorithm: "token_bucket" as const,
  limit: 20,
  window: "1s",
};

beforeAll(async () => {
  const plan = await anyPlan();
  const id = await makeTenant(slug, plan);
  await makeTenant(other, plan);
  editor = await makeMember(`${slug}@editor.test`, id, "editor");
  await createApiKey(editor, slug, { name: "backend" });
  await saveLimit(editor, { kind: "tenant", tenant: slug }, { originalName: null, limit: cap });
  await saveLimit(
    editor,
    { kind: "tenant", tenant: slug },
    { originalName: "cap", limit: { ...cap, limit: 40 } },
  );
  const endsAt = new Date(Date.now() + 3_600_000).toISOString();
  await createOverride(
    editor,
    { tenant: slug, key: "backend", limit: "cap", value: 50, endsAt, reason: "audit" },
    null,
  );
});

describe("audit log", () => {
  it("names keys instead of their ids and shows a limit edit as the fields it changed", async () => {
    const { rows } = await listAuditEntries(editor, { tenantSlug: slug });
    const key = rows.find((r) => r.action === "key.create");
    expect(key?.target).toBe("key backend");
    const edit = rows.find((r) => r.action === "tenant.update");
    expect(fieldDiff(edit?.before, edit?.after)).toEqual([
      { path: "limits[cap].limit", before: "20", after: "40" },
    ]);
  });

  it("names an override by its limit and key, and the admin API names targets too", async () => {
    const { rows } = await listAuditEntries(editor, { tenantSlug: slug });
    const made = rows.find((r) => r.action === "override.create");
    expect(made?.target).toBe("override cap for key backend");
    expect(rows.every((r) => r.tenantSlug === slug)).toBe(true);
    expect(rows.map((r) => r.target).join(" ")).not.toMatch(/\b(c[a-z0-9]{20,})\b/); // no cuid
    const api = await listAudit(editor, { tenant: slug, limit: 50 });
    const key = api.entries.find((e) => e.action === "key.create");
    expect(key?.target).toEqual({ type: "key", id: expect.any(String), name: "backend" });
    expect(api.entries.find((e) => e.action === "override.create")?.target.name).toBe("cap for key backend");
    expect(api.entries.every((e) => e.tenant === slug)).toBe(true);
  });

  it("filters by kind and actor, pages by cursor", async () => {
    const keys = await listAuditEntries(editor, { tenantSlug: slug, filter: { kind: "key" } });
    expect(keys.rows.length).toBeGreaterThan(0);
    expect(keys.rows.every((r) => r.action.startsWith("key."))).toBe(true);
    const mine = await listAuditEntries(editor, { tenantSlug: slug, filter: { actor: "EDITOR.TEST" } });
    expect(mine.rows.length).toBeGreaterThanOrEqual(3);
    expect((await listAuditEntries(editor, { tenantSlug: slug, filter: { actor: "nobody" } })).rows).toEqual(
      [],
    );
    const first = await listAuditEntries(editor, { tenantSlug: slug, take: 1 });
    expect(first.rows).toHaveLength(1);
    expect(first.nextBefore).toBe(first.rows[0]?.id);
    const second = await listAuditEntries(editor, {
      tenantSlug: slug,
      take: 1,
      filter: { before: first.nextBefore ?? "" },
    });
    expect(Number(second.rows[0]?.id)).toBeLessThan(Number(first.rows[0]?.id));
    const all = await listAuditEntries(editor, { tenantSlug: slug, take: 200 });
    expect(all.nextBefore).toBeNull();
  });

  it("filters by time range and by tenant (operators)", async () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(
      (await listAuditEntries(editor, { tenantSlug: slug, filter: { from: today } })).rows.length,
    ).toBeGreaterThan(0);
    expect((await listAuditEntries(editor, { tenantSlug: slug, filter: { to: "2020-01-01" } })).rows).toEqual(
      [],
    );
    const scoped = await listAuditEntries(system, { tenantSlug: null, filter: { tenant: slug }, take: 200 });
    expect(new Set(scoped.rows.map((r) => r.tenantSlug))).toEqual(new Set([slug]));
  });

  it("keeps a member to its tenant and refuses malformed filters, naming the field", async () => {
    await expect(listAuditEntries(editor, { tenantSlug: other })).rejects.toBeInstanceOf(NotFoundError);
    await expect(listAuditEntries(editor, { tenantSlug: null, filter: { tenant: slug } })).rejects.toThrow(
      /operators/,
    );
    const bad = parseAuditFilter({ from: "yesterday", kind: "DROP TABLE" });
    expect(bad.success).toBe(false);
    expect(new Set(bad.error?.issues.map((i) => i.path.join(".")))).toEqual(new Set(["kind", "from"]));
    expect(parseAuditFilter({ actor: " ", kind: "key" }).data).toEqual({ kind: "key" });
  });
});
