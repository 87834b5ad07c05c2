// The audit log a page at a time, against real PostgreSQL: 50 entries a page with the
// cursor to the next and the filters kept across pages, the page's HTML carrying each
// entry's count of changed fields but not the fields (read when unfolded, by whoever may
// read the entry, and by no one else).
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/shared/principal";
import { createApiKey } from "@/lib/control/data/api-keys";
import { saveLimit } from "@/lib/control/edits/save-limit";
import { NotFoundError } from "@/lib/control/errors/errors";
import { listAuditEntries } from "@/lib/control/data/queries/audit-entries";
import { auditEntryValues } from "@/lib/control/data/queries/audit-entry-values";
import { AUDIT_PAGE_SIZE, auditHref, parseAuditFilter } from "@/lib/control/audit/audit-filter";
import { AuditTable } from "@/components/audit/audit-table";
import { fieldDiff } from "@/components/audit/field-diff";
import { anyPlan, makeMember, makeTenant, system, uniqueSlug } from "./fixtures";

const slug = uniqueSlug("audit-pages");
const other = uniqueSlug("audit-pages-other");
const KEYS = 60;
let admin: Principal;
let outsider: Principal;

beforeAll(async () => {
  const plan = await anyPlan();
  const id = await makeTenant(slug, plan);
  const otherId = await makeTenant(other, plan);
  admin = await makeMember(`${slug}@admin.test`, id, "admin");
  outsider = await makeMember(`${other}@viewer.test`, otherId, "viewer");
  for (let i = 0; i < KEYS; i++) await createApiKey(admin, slug, { name: `paged-${i}` });
  const cap = {
    name: "cap",
    by: "tenant" as const,
    algorithm: "token_bucket" as const,
    limit: 20,
    window: "1s",
  };
  await saveLimit(admin, { kind: "tenant", tenant: slug }, { originalName: null, limit: cap });
  await saveLimit(
    admin,
    { kind: "tenant", tenant: slug },
    { originalName: "cap", limit: { ...cap, limit: 40 } },
  );
}, 60_000);

describe("audit log pages", () => {
  it("pages 50 entries at a time by cursor, keeping the filters", async () => {
    const filter = { kind: "key" };
    const first = await listAuditEntries(admin, { tenantSlug: slug, filter });
    expect(first.rows).toHaveLength(AUDIT_PAGE_SIZE);
    expect(first.nextBefore).toBe(first.rows.at(-1)?.id);
    // the pager's link: the same filter at the next cursor
    const href = auditHref(`/tenants/${slug}/audit`, filter, first.nextBefore);
    const parsed = parseAuditFilter(Object.fromEntries(new URL(href, "http://x").searchParams));
    expect(parsed.data).toEqual({ kind: "key", before: first.nextBefore });
    const second = await listAuditEntries(admin, { tenantSlug: slug, filter: parsed.data });
    // 61 key entries: the tenant's own key of the fixture and the 60 made here
    expect(second.rows).toHaveLength(KEYS + 1 - AUDIT_PAGE_SIZE);
    expect(second.nextBefore).toBeNull();
    expect([...first.rows, ...second.rows].every((r) => r.action.startsWith("key."))).toBe(true);
    const ids = [...first.rows, ...second.rows].map((r) => Number(r.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(KEYS + 1);
  });

  it("sends each entry's count of changed fields, not the fields", async () => {
    const { rows } = await listAuditEntries(admin, { tenantSlug: slug, filter: { kind: "tenant" } });
    const edit = rows.find((r) => r.action === "tenant.update" && fieldDiff(r.before, r.after).length === 1);
    expect(edit).toBeDefined();
    const html = renderToStaticMarkup(
      createElement(AuditTable, {
        rows,
        showTenant: false,
        loadChanges: () => Promise.resolve({ ok: true as const, data: [] }),
      }),
    ).replace(/<!-- -->/g, "");
    expect(html).toContain("<summary>1 field</summary>");
    expect(html).toContain("changed limits[cap]");
    expect(html).not.toContain("limits[cap].limit");
    expect(html).not.toContain('data-testid="field-diff"');
  });

  it("reads an entry's changes for its tenant's members and operators only", async () => {
    const { rows } = await listAuditEntries(admin, { tenantSlug: slug, filter: { kind: "tenant" } });
    const edit = rows.find((r) => r.action === "tenant.update" && fieldDiff(r.before, r.after).length === 1);
    const id = edit?.id ?? "";
    const values = await auditEntryValues(admin, id);
    expect(fieldDiff(values.before, values.after)).toEqual([
      { path: "limits[cap].limit", before: "20", after: "40" },
    ]);
    expect(await auditEntryValues(system, id)).toEqual(values);
    await expect(auditEntryValues(outsider, id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(auditEntryValues(admin, "999999999999")).rejects.toBeInstanceOf(NotFoundError);
  });
});
