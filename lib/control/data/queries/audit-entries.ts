import "server-only";
import { isOperator, type Principal } from "@/lib/shared/principal";
import type { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/control/data/db";
import { tenantFor } from "@/lib/control/data/tenant-access";
import { ForbiddenError } from "@/lib/control/errors/errors";
import { AUDIT_PAGE_SIZE, type AuditFilter } from "@/lib/control/audit/audit-filter";
import { targetNames } from "@/lib/control/data/queries/audit-targets";

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

function whereOf(filter: AuditFilter): Prisma.AuditEntryWhereInput {
  const where: Prisma.AuditEntryWhereInput = {};
  if (filter.before) where.id = { lt: BigInt(filter.before) };
  if (filter.actor) where.actorLabel = { contains: filter.actor, mode: "insensitive" };
  if (filter.kind) where.OR = [{ action: filter.kind }, { action: { startsWith: `${filter.kind}.` } }];
  const at: Prisma.DateTimeFilter = {};
  if (filter.from) at.gte = new Date(`${filter.from}T00:00:00Z`);
  if (filter.to) at.lt = new Date(Date.parse(`${filter.to}T00:00:00Z`) + 86_400_000);
  if (at.gte || at.lt) where.at = at;
  return where;
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
    const found = await tx.auditEntry.findMany({
      where: { ...whereOf(filter), ...(tenant ? { tenantId: tenant.id } : {}) },
      orderBy: { id: "desc" },
      take: take + 1,
    });
    const rows = found.slice(0, take);
    const ids = [...new Set(rows.map((r) => r.tenantId).filter((id): id is string => !!id))];
    const slugs = new Map(
      (await tx.tenant.findMany({ where: { id: { in: ids } }, select: { id: true, slug: true } })).map(
        (t) => [t.id, t.slug],
      ),
    );
    const names = await targetNames(tx, rows);
    return {
      rows: rows.map((r) => ({
        id: r.id.toString(),
        at: r.at,
        actor: r.actorLabel,
        action: r.action,
        target: names.get(r.id) ?? (r.targetId ? `${r.targetType} ${r.targetId}` : r.targetType),
        tenantSlug: r.tenantId ? (slugs.get(r.tenantId) ?? null) : null,
        before: r.before,
        after: r.after,
        configVersion: r.configVersion,
      })),
      nextBefore: found.length > take ? (rows.at(-1)?.id.toString() ?? null) : null,
    };
  });
}
