import "server-only";
import { isOperator, type Principal } from "@/lib/shared/principal";
import { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/control/data/db";
import { tenantFor } from "@/lib/control/data/tenant-access";
import { ForbiddenError } from "@/lib/control/errors/errors";
import { AUDIT_PAGE_SIZE, type AuditFilter } from "@/lib/control/audit/audit-filter";
import { TARGET_JOINS, TARGET_NAME, targetText } from "@/lib/control/data/queries/audit-targets";

export interface AuditRow {
  id: string;
  at: Date;
  actor: string;
  action: string;
  /** what was changed, by name where one is known ("key backend"), else type and id */
  target: string;
  tenantSlug: string | null;
  before: unknown;
  after: unknown;
  configVersion: number | null;
}

export interface AuditRows {
  rows: AuditRow[];
  /** the cursor of the next (older) page; null on the last */
  nextBefore: string | null;
}

interface EntryRow {
  id: bigint;
  at: Date;
  actorLabel: string;
  action: string;
  targetType: string;
  targetId: string | null;
  targetName: string | null;
  tenantSlug: string | null;
  before: unknown;
  after: unknown;
  configVersion: number | null;
}

/** The filter as SQL conditions on the entry `a`; every value is a bound parameter. */
function whereOf(filter: AuditFilter, tenantId: string | null): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`true`];
  if (tenantId) parts.push(Prisma.sql`a."tenantId" = ${tenantId}`);
  if (filter.before) parts.push(Prisma.sql`a.id < ${BigInt(filter.before)}`);
  // position(), not ilike: a % or _ in the actor filter is a character, not a pattern
  if (filter.actor) parts.push(Prisma.sql`position(lower(${filter.actor}) in lower(a."actorLabel")) > 0`);
  if (filter.kind)
    parts.push(Prisma.sql`(a.action = ${filter.kind} or starts_with(a.action, ${`${filter.kind}.`}))`);
  if (filter.from) parts.push(Prisma.sql`a.at >= ${new Date(`${filter.from}T00:00:00Z`)}`);
  if (filter.to)
    parts.push(Prisma.sql`a.at < ${new Date(Date.parse(`${filter.to}T00:00:00Z`) + 86_400_000)}`);
  return Prisma.join(parts, " and ");
}

/**
 * Newest first, one page. A tenant's log for its members (`tenantSlug`); the whole log,
 * optionally narrowed to a tenant by `filter.tenant`, only for operators.
 */
export async function listAuditEntries(
  principal: Principal,
  options: { tenantSlug: string | null; filter?: AuditFilter; take?: number },
): Promise<AuditRows> {
  const filter = options.filter ?? {};
  return db().$transaction(async (tx) => {
    const slug = options.tenantSlug ?? filter.tenant ?? null;
    const tenant = slug ? await tenantFor(tx, principal, slug, "viewer") : null;
    if (!options.tenantSlug && !isOperator(principal))
      throw new ForbiddenError("Only operators can read the whole audit log.");
    const take = Math.min(options.take ?? AUDIT_PAGE_SIZE, 200);
    // one query: the page, its tenants' slugs and its targets' names (audit-targets.ts)
    const found = await tx.$queryRaw<EntryRow[]>`
      select a.id, a.at, a."actorLabel", a.action, a."targetType", a."targetId", a.before, a.after,
             a."configVersion", tenant.slug as "tenantSlug", ${TARGET_NAME} as "targetName"
      from "AuditEntry" a ${TARGET_JOINS}
      where ${whereOf(filter, tenant?.id ?? null)}
      order by a.id desc
      limit ${take + 1}`;
    const rows = found.slice(0, take);
    return {
      rows: rows.map((r) => ({
        id: r.id.toString(),
        at: r.at,
        actor: r.actorLabel,
        action: r.action,
        target: targetText(r),
        tenantSlug: r.tenantSlug,
        before: r.before,
        after: r.after,
        configVersion: r.configVersion,
      })),
      nextBefore: found.length > take ? (rows.at(-1)?.id.toString() ?? null) : null,
    };
  });
}
