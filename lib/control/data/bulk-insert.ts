import "server-only";
import { randomBytes } from "node:crypto";
import type { LimitRowData } from "@/lib/control/data/limit-rows";
import type { Tx } from "@/lib/control/data/tx";
import { Prisma } from "@/lib/generated/prisma/client";

// Inserts of many rows in one statement each (columns as arrays, unnest): Prisma's
// createMany took seconds per thousand limit rows, and a 10,000-tenant import writes
// 100,000. Ids are made here in the shape of Prisma's cuid() defaults.

let counter = 0;

/** A cuid-like id: "c", time, a counter and 64 random bits, base 36 (25 characters). */
export function newRowId(): string {
  counter = (counter + 1) % 1_679_616;
  const random = randomBytes(8).readBigUInt64BE().toString(36).padStart(13, "0").slice(0, 12);
  return `c${Date.now().toString(36).padStart(8, "0")}${counter.toString(36).padStart(4, "0")}${random}`;
}

export interface TenantRow {
  id: string;
  slug: string;
  name: string;
  planId: string;
  status: string;
  /** the header flavour; null: the default */
  headers: string | null;
  /** allow and deny lists and subnet keying as JSON text; null: none */
  lists: string | null;
  ipSubjects: string | null;
  /** the calendar quotas' time zone; null: UTC */
  timeZone: string | null;
}

export async function insertTenants(tx: Tx, rows: readonly TenantRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.$executeRaw`
    insert into "Tenant" (id, slug, name, "planId", status, headers, lists, "ipSubjects", "timeZone", "updatedAt")
    select v.id, v.slug, v.name, v.plan, v.status::"TenantStatus", v.headers, v.lists::jsonb, v.subnets::jsonb, v.zone, now()
    from unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.slug)}::text[],
                ${rows.map((r) => r.name)}::text[], ${rows.map((r) => r.planId)}::text[],
                ${rows.map((r) => r.status)}::text[], ${rows.map((r) => r.headers)}::text[],
                ${rows.map((r) => r.lists)}::text[], ${rows.map((r) => r.ipSubjects)}::text[],
                ${rows.map((r) => r.timeZone)}::text[])
      as v(id, slug, name, plan, status, headers, lists, subnets, zone)`;
}

export async function insertRoutes(
  tx: Tx,
  rows: readonly { id: string; tenantId: string; pattern: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.$executeRaw`
    insert into "Route" (id, "tenantId", scope, pattern, "updatedAt")
    select v.id, v.tenant, v.tenant, v.pattern, now()
    from unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.tenantId)}::text[],
                ${rows.map((r) => r.pattern)}::text[]) as v(id, tenant, pattern)`;
}

export async function insertKeys(
  tx: Tx,
  rows: readonly { id: string; tenantId: string; name: string; prefix: string; hash: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.$executeRaw`
    insert into "ApiKey" (id, "tenantId", name, prefix, hash)
    select * from unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.tenantId)}::text[],
                         ${rows.map((r) => r.name)}::text[], ${rows.map((r) => r.prefix)}::text[],
                         ${rows.map((r) => r.hash)}::text[])`;
}

export type LimitInsert = LimitRowData & { tenantId?: string; routeId?: string; apiKeyId?: string };

export async function insertLimits(tx: Tx, rows: readonly LimitInsert[]): Promise<void> {
  if (rows.length === 0) return;
  const col = <T>(pick: (row: LimitInsert) => T): T[] => rows.map(pick);
  const text = (value: bigint | null): string | null => (value === null ? null : value.toString());
  await tx.$executeRaw`
    insert into "Limit" (id, "tenantId", "routeId", "apiKeyId", name, by, "routePattern", algorithm,
      "limit", "windowMs", period, "timeZone", burst, action, "maxDelayMs", mode, "onStoreFailure", consistency,
      "syncEveryMs", disabled, position, penalty, "updatedAt")
    select v.id, v.tenant, v.route, v.key, v.name, v.by::"LimitBy", v.pattern, v.algorithm::"Algorithm",
      v.lim, v.win::bigint, v.period, v.zone, v.burst, v.action::"LimitAction", v.delay::bigint, v.mode::"LimitMode",
      v.fail::"StoreFailure", v.cons::"LimitConsistency", v.sync, v.off, v.pos, v.pen::jsonb, now()
    from unnest(
      ${rows.map(() => newRowId())}::text[], ${col((r) => r.tenantId ?? null)}::text[],
      ${col((r) => r.routeId ?? null)}::text[], ${col((r) => r.apiKeyId ?? null)}::text[],
      ${col((r) => r.name)}::text[], ${col((r) => r.by)}::text[], ${col((r) => r.routePattern)}::text[],
      ${col((r) => r.algorithm)}::text[], ${col((r) => r.limit)}::int[], ${col((r) => text(r.windowMs))}::text[],
      ${col((r) => r.period)}::text[], ${col((r) => r.timeZone)}::text[], ${col((r) => r.burst)}::int[], ${col((r) => r.action)}::text[], ${col((r) => text(r.maxDelayMs))}::text[],
      ${col((r) => r.mode)}::text[], ${col((r) => r.onStoreFailure)}::text[], ${col((r) => r.consistency)}::text[],
      ${col((r) => r.syncEveryMs)}::int[], ${col((r) => r.disabled)}::boolean[], ${col((r) => r.position)}::int[],
      ${col((r) => (r.penalty === Prisma.DbNull ? null : JSON.stringify(r.penalty)))}::text[]
    ) as v(id, tenant, route, key, name, by, pattern, algorithm, lim, win, period, zone, burst, action, delay, mode,
           fail, cons, sync, off, pos, pen)`;
}
