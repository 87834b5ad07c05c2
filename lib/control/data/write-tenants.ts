import "server-only";
import { listsColumn } from "@/lib/control/data/global-lists";
import type { TenantDoc } from "@/lib/control/config/document";
import {
  insertLimits,
  insertRoutes,
  insertTenants,
  newRowId,
  type LimitInsert,
} from "@/lib/control/data/bulk-insert";
import { limitToRow } from "@/lib/control/data/limit-rows";
import type { Tx } from "@/lib/control/data/tx";

// The tenant writes of an import, batched: a handful of statements for any number of
// tenants (a 10,000-tenant document must import within the change's transaction timeout),
// instead of several per tenant and per route. Each listed tenant becomes exactly what the
// document says; its limits, routes and key limits are replaced wholesale, as limit rows
// carry no identity of their own (counters are keyed by where a limit is declared).

/** Rows per statement (and ids in one IN list, well under PostgreSQL's 65,535 bind values). */
const CHUNK = 2_000;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Creates the new tenants and updates the existing ones' fields, clearing their limits,
 * routes and key limits. `existing`: slug -> id of those already in the database.
 * Answers every written tenant's id by slug.
 */
export async function writeTenantRows(
  tx: Tx,
  tenants: readonly TenantDoc[],
  existing: ReadonlyMap<string, string>,
  planIds: ReadonlyMap<string, string>,
): Promise<Map<string, string>> {
  const planOf = (tenant: TenantDoc): string => {
    const planId = planIds.get(tenant.plan);
    if (!planId) throw new Error(`plan ${tenant.plan} vanished during the import`);
    return planId;
  };
  const ids = new Map<string, string>();
  const updated = tenants.filter((t) => existing.has(t.slug));
  for (const part of chunks(updated)) {
    const partIds = part.map((t) => existing.get(t.slug) ?? "");
    await tx.$executeRaw`
      update "Tenant" t set name = v.name, "planId" = v.plan, status = v.status::"TenantStatus",
        headers = v.headers, lists = v.lists::jsonb, "ipSubjects" = v.subnets::jsonb, "timeZone" = v.zone,
        "updatedAt" = now()
      from unnest(${partIds}::text[], ${part.map((t) => t.name ?? t.slug)}::text[],
                  ${part.map(planOf)}::text[], ${part.map((t) => t.status)}::text[],
                  ${part.map((t) => t.headers ?? null)}::text[], ${part.map((t) => listsColumn(t.lists))}::text[],
                  ${part.map(subnetsColumn)}::text[], ${part.map((t) => t.timeZone ?? null)}::text[])
        as v(id, name, plan, status, headers, lists, subnets, zone)
      where t.id = v.id`;
    await tx.limit.deleteMany({ where: { tenantId: { in: partIds } } });
    await tx.limit.deleteMany({ where: { apiKey: { tenantId: { in: partIds } } } });
    // their limits go with them (cascade)
    await tx.route.deleteMany({ where: { tenantId: { in: partIds } } });
    part.forEach((t, i) => ids.set(t.slug, partIds[i] ?? ""));
  }
  const created = tenants
    .filter((t) => !existing.has(t.slug))
    .map((t) => ({
      id: newRowId(),
      slug: t.slug,
      name: t.name ?? t.slug,
      planId: planOf(t),
      status: t.status,
      headers: t.headers ?? null,
      lists: listsColumn(t.lists),
      ipSubjects: subnetsColumn(t),
      timeZone: t.timeZone ?? null,
    }));
  for (const part of chunks(created)) await insertTenants(tx, part);
  for (const row of created) ids.set(row.slug, row.id);
  return ids;
}

/** The tenants' routes, limits and key limits, after writeTenantRows and after new keys exist. */
export async function writeTenantParts(
  tx: Tx,
  tenants: readonly TenantDoc[],
  ids: ReadonlyMap<string, string>,
): Promise<void> {
  const idOf = (slug: string): string => {
    const id = ids.get(slug);
    if (!id) throw new Error(`tenant ${slug} vanished during the import`);
    return id;
  };
  const limits: LimitInsert[] = [];
  for (const tenant of tenants)
    tenant.limits.forEach((l, i) => limits.push({ tenantId: idOf(tenant.slug), ...limitToRow(l, i) }));

  const routes = tenants.flatMap((t) =>
    t.routes.map((route) => ({ id: newRowId(), tenantId: idOf(t.slug), pattern: route.pattern, route })),
  );
  for (const part of chunks(routes)) await insertRoutes(tx, part);
  for (const { id, route } of routes)
    route.limits.forEach((l, i) => limits.push({ routeId: id, ...limitToRow(l, i) }));

  const withKeyLimits = tenants.filter((t) => t.keys.some((k) => k.limits.length > 0));
  for (const part of chunks(withKeyLimits)) {
    const keys = await tx.apiKey.findMany({
      where: { tenantId: { in: part.map((t) => idOf(t.slug)) } },
      select: { id: true, tenantId: true, name: true },
    });
    const keyIds = new Map(keys.map((k) => [`${k.tenantId} ${k.name}`, k.id]));
    for (const tenant of part) {
      for (const key of tenant.keys) {
        const apiKeyId = keyIds.get(`${idOf(tenant.slug)} ${key.name}`);
        if (!apiKeyId) throw new Error(`key ${key.name} vanished during the import`);
        key.limits.forEach((l, i) => limits.push({ apiKeyId, ...limitToRow(l, i) }));
      }
    }
  }
  for (const part of chunks(limits, 10_000)) await insertLimits(tx, part);
}

const subnetsColumn = (tenant: TenantDoc): string | null =>
  tenant.ipSubjects === undefined ? null : JSON.stringify(tenant.ipSubjects);
