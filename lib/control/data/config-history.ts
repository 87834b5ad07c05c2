import "server-only";
import { z } from "zod";
import { isOperator, roleIn, type Principal } from "@/lib/shared/principal";
import { Prisma } from "@/lib/generated/prisma/client";
import { NAME_PATTERN, NAME_RULE } from "@/lib/control/config/document";
import { db } from "@/lib/control/data/db";
import { tenantFor } from "@/lib/control/data/tenant-access";
import type { Tx } from "@/lib/control/data/tx";
import { isRevertible, ROLLBACK_RESTORES } from "@/lib/control/audit/revertible";

// Configuration history: every config version with who made it, when, and what changed
// (the audit entries written with it, before and after per object). Operators see every
// version; anyone else only the versions that changed a tenant they may see, and only
// those tenants' entries. Rollback is in config-rollback.ts.

export const HistoryQuery = z.strictObject({
  tenant: z.string().regex(NAME_PATTERN, { error: NAME_RULE }).optional(),
  /** versions per page, 1..100, default 20 */
  limit: z.coerce
    .number()
    .int()
    .min(1, { error: "must be at least 1" })
    .max(100, { error: "must be at most 100" })
    .default(20),
  before: z.coerce
    .number({ error: "must be a config version" })
    .int({ error: "must be a config version" })
    .min(1, { error: "must be a config version" })
    .max(2_147_483_647, { error: "must be a config version" })
    .optional(),
});
export type HistoryQuery = z.infer<typeof HistoryQuery>;

export interface HistoryChange {
  /** the audit entry's id (what "revert this change" names) */
  id: string;
  action: string;
  target: { type: string; id: string | null };
  tenant: string | null;
  before: unknown;
  after: unknown;
  revertible: boolean;
}

export interface HistoryVersion {
  version: number;
  at: string;
  actors: string[];
  changes: HistoryChange[];
  /** whether its document was kept, so it can be rolled back to */
  restorable: boolean;
  /** restorable, and a later version changed what a rollback restores: offered then only */
  rollbackable: boolean;
}

export interface HistoryPage {
  versions: HistoryVersion[];
  /** pass as `before` for the next (older) page; null on the last page */
  nextBefore: number | null;
}

/** The audit filter of what the principal may see (a tenant's id, or its tenants' ids). */
async function visibleTenants(
  tx: Tx,
  principal: Principal,
  tenant: string | undefined,
): Promise<Prisma.AuditEntryWhereInput> {
  if (tenant) return { tenantId: (await tenantFor(tx, principal, tenant, "viewer")).id };
  if (isOperator(principal)) return {};
  const tenants = await tx.tenant.findMany({ select: { id: true } });
  return { tenantId: { in: tenants.filter((t) => roleIn(principal, t.id) !== null).map((t) => t.id) } };
}

export async function listHistory(principal: Principal, query: HistoryQuery): Promise<HistoryPage> {
  return db().$transaction(async (tx) => {
    const scope = await visibleTenants(tx, principal, query.tenant);
    const where: Prisma.AuditEntryWhereInput = {
      ...scope,
      configVersion: query.before === undefined ? { not: null } : { lt: query.before },
    };
    const found = await tx.auditEntry.findMany({
      where,
      distinct: ["configVersion"],
      orderBy: { configVersion: "desc" },
      take: query.limit + 1,
      select: { configVersion: true },
    });
    const numbers = found
      .slice(0, query.limit)
      .flatMap((r) => (r.configVersion === null ? [] : [r.configVersion]));
    const entries = await tx.auditEntry.findMany({
      where: { ...scope, configVersion: { in: numbers } },
      orderBy: { id: "asc" },
    });
    const versions = await tx.configVersion.findMany({
      where: { version: { in: numbers } },
      select: { version: true, createdAt: true },
    });
    const kept = new Set(
      (
        await tx.configVersion.findMany({
          where: { version: { in: numbers }, OR: [{ partial: true }, { document: { not: Prisma.AnyNull } }] },
          select: { version: true },
        })
      ).map((v) => v.version),
    );
    // the newest version a rollback could undo something of, in what this page shows
    const acting = await tx.auditEntry.aggregate({
      where: { ...scope, configVersion: { not: null }, action: { in: [...ROLLBACK_RESTORES] } },
      _max: { configVersion: true },
    });
    const newestActing = acting._max.configVersion ?? 0;
    const slugs = await tx.tenant.findMany({
      where: { id: { in: [...new Set(entries.flatMap((e) => (e.tenantId ? [e.tenantId] : [])))] } },
      select: { id: true, slug: true },
    });
    const slugOf = new Map(slugs.map((t) => [t.id, t.slug]));
    const at = new Map(versions.map((v) => [v.version, v.createdAt.toISOString()]));
    return {
      versions: numbers.map((version) => {
        const own = entries.filter((e) => e.configVersion === version);
        return {
          version,
          at: at.get(version) ?? own[0]?.at.toISOString() ?? "",
          actors: [...new Set(own.map((e) => e.actorLabel))],
          changes: own.map((e) => ({
            id: e.id.toString(),
            action: e.action,
            target: { type: e.targetType, id: e.targetId },
            tenant: e.tenantId === null ? null : (slugOf.get(e.tenantId) ?? e.tenantId),
            before: e.before,
            after: e.after,
            revertible: isRevertible(e.action),
          })),
          restorable: kept.has(version),
          rollbackable: kept.has(version) && version < newestActing,
        };
      }),
      nextBefore: found.length > query.limit ? (numbers.at(-1) ?? null) : null,
    };
  });
}
