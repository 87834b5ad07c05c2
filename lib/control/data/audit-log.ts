import "server-only";
import { z } from "zod";
import { hasRole, isOperator, roleIn, type Principal } from "@/lib/shared/principal";
import { maskedUrl } from "@/lib/control/alerts/guard/redaction";
import { Prisma } from "@/lib/generated/prisma/client";
import { TARGET_JOINS, TARGET_NAME } from "@/lib/control/data/queries/audit-targets";
import { db } from "@/lib/control/data/db";
import { NAME_PATTERN, NAME_RULE } from "@/lib/control/config/document";
import { tenantFor } from "@/lib/control/data/tenant-access";

// Reading the audit log, newest first. Operators see everything (including entries with no
// tenant: plans, global routes, operator tokens); anyone else only entries of tenants they
// may see. Paged by id: `before` is the `nextBefore` of the previous page.

export const AuditQuery = z.strictObject({
  tenant: z.string().regex(NAME_PATTERN, { error: NAME_RULE }).optional(),
  /** page size (not a rate limit): 1..500, default 50 */
  limit: z.coerce
    .number()
    .int()
    .min(1, { error: "must be at least 1" })
    .max(500, { error: "must be at most 500" })
    .default(50),
  before: z
    .string()
    .regex(/^\d{1,19}$/, { error: "must be an entry id from a previous page" })
    .optional(),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

export interface AuditItem {
  id: string;
  at: string;
  actor: { type: string; id: string | null; label: string };
  tenant: string | null;
  action: string;
  /** name: the key's, token's, rule's... name, or the member's e-mail; null once deleted */
  target: { type: string; id: string | null; name: string | null };
  before: unknown;
  after: unknown;
  requestId: string | null;
  configVersion: number | null;
}

interface ApiEntryRow {
  id: bigint;
  at: Date;
  actorType: string;
  actorId: string | null;
  actorLabel: string;
  tenantId: string | null;
  tenantSlug: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  targetName: string | null;
  before: unknown;
  after: unknown;
  requestId: string | null;
  configVersion: number | null;
}

export interface AuditPage {
  entries: AuditItem[];
  /** pass as `before` for the next (older) page; null on the last page */
  nextBefore: string | null;
}

/** An alert endpoint's URL can be its secret: below admin, its entries show scheme and host. */
function visibleState(
  principal: Principal,
  tenantId: string | null,
  action: string,
  state: unknown,
): unknown {
  if (!action.startsWith("alert-endpoint.") || state === null || typeof state !== "object") return state;
  if (isOperator(principal) || (tenantId !== null && hasRole(principal, tenantId, "admin"))) return state;
  const url = (state as { url?: unknown }).url;
  return typeof url === "string" ? { ...state, url: maskedUrl(url) } : state;
}

export async function listAudit(principal: Principal, query: AuditQuery): Promise<AuditPage> {
  return db().$transaction(async (tx) => {
    let scope = Prisma.sql`true`;
    if (query.tenant) {
      scope = Prisma.sql`a."tenantId" = ${(await tenantFor(tx, principal, query.tenant, "viewer")).id}`;
    } else if (!isOperator(principal)) {
      const tenants = await tx.tenant.findMany({ select: { id: true } });
      const ids = tenants.filter((t) => roleIn(principal, t.id) !== null).map((t) => t.id);
      scope = Prisma.sql`a."tenantId" = any(${ids}::text[])`;
    }
    const before = query.before ? Prisma.sql`a.id < ${BigInt(query.before)}` : Prisma.sql`true`;
    // one query: the page, its tenants' slugs and its targets' names (queries/audit-targets.ts)
    const rows = await tx.$queryRaw<ApiEntryRow[]>`
      select a.*, tenant.slug as "tenantSlug", ${TARGET_NAME} as "targetName"
      from "AuditEntry" a ${TARGET_JOINS}
      where ${scope} and ${before}
      order by a.id desc
      limit ${query.limit + 1}`;
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      entries: page.map((row) => ({
        id: row.id.toString(),
        at: row.at.toISOString(),
        actor: { type: row.actorType, id: row.actorId, label: row.actorLabel },
        // a deleted tenant's history stays readable to operators, under its id
        tenant: row.tenantId === null ? null : (row.tenantSlug ?? row.tenantId),
        action: row.action,
        target: { type: row.targetType, id: row.targetId, name: row.targetName },
        before: visibleState(principal, row.tenantId, row.action, row.before),
        after: visibleState(principal, row.tenantId, row.action, row.after),
        requestId: row.requestId,
        configVersion: row.configVersion,
      })),
      nextBefore: rows.length > query.limit && last ? last.id.toString() : null,
    };
  });
}
