import "server-only";
import { isOperator, type Principal } from "@/lib/auth/principal";
import { db } from "@/lib/data/db";
import { tenantFor } from "@/lib/data/tenant-access";
import { ForbiddenError } from "@/lib/data/errors";

export interface AuditRow {
  id: string;
  at: Date;
  actor: string;
  action: string;
  target: string;
  tenantSlug: string | null;
  before: unknown;
  after: unknown;
  configVersion: number | null;
}

/** Newest first. A tenant's log for its members; the whole log only for operators. */
export async function listAuditEntries(
  principal: Principal,
  options: { tenantSlug: string | null; take?: number; beforeId?: string },
): Promise<AuditRow[]> {
  return db().$transaction(async (tx) => {
    const tenant = options.tenantSlug ? await tenantFor(tx, principal, options.tenantSlug, "viewer") : null;
    if (!tenant && !isOperator(principal))
      throw new ForbiddenError("Only operators can read the whole audit log.");
    const rows = await tx.auditEntry.findMany({
      where: {
        ...(tenant ? { tenantId: tenant.id } : {}),
        ...(options.beforeId && /^\d+$/.test(options.beforeId)
          ? { id: { lt: BigInt(options.beforeId) } }
          : {}),
      },
      orderBy: { id: "desc" },
      take: Math.min(options.take ?? 50, 200),
    });
    const ids = [...new Set(rows.map((r) => r.tenantId).filter((id): id is string => !!id))];
    const slugs = new Map(
      (await tx.tenant.findMany({ where: { id: { in: ids } }, select: { id: true, slug: true } })).map(
        (t) => [t.id, t.slug],
      ),
    );
    return rows.map((r) => ({
      id: r.id.toString(),
      at: r.at,
      actor: r.actorLabel,
      action: r.action,
      target: r.targetId ? `${r.targetType} ${r.targetId}` : r.targetType,
      tenantSlug: r.tenantId ? (slugs.get(r.tenantId) ?? null) : null,
      before: r.before,
      after: r.after,
      configVersion: r.configVersion,
    }));
  });
}
