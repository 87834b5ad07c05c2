import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { actorIdOf, actorLabel, type Principal } from "@/lib/shared/principal";
import type { Tx } from "@/lib/control/data/tx";

export interface AuditInput {
  action: string;
  targetType: string;
  targetId?: string | null;
  tenantId?: string | null;
  before?: unknown;
  after?: unknown;
}

export interface AuditContext {
  principal: Principal;
  requestId: string | null;
  configVersion: number | null;
}

// JSON columns take plain JSON: BigInt and undefined are converted here.
function toJson(value: unknown): Prisma.InputJsonValue | undefined {
  if (value === undefined || value === null) return undefined;
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v)));
}

/** Writes one audit entry in the caller's transaction (so it exists exactly when the change does). */
export async function writeAudit(tx: Tx, context: AuditContext, entry: AuditInput): Promise<void> {
  await tx.auditEntry.create({
    data: {
      actorType: context.principal.kind,
      actorId: actorIdOf(context.principal),
      actorLabel: actorLabel(context.principal),
      tenantId: entry.tenantId ?? null,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId ?? null,
      before: toJson(entry.before),
      after: toJson(entry.after),
      requestId: context.requestId,
      configVersion: context.configVersion,
    },
  });
}

/**
 * Many entries in one statement, in order (ids ascend as given): for config-change.ts,
 * whose one-by-one writeAudit costs ~5 ms an entry through Prisma, so a 10,000-tenant
 * import's 40,000 entries (tenants and the keys it makes) would outlast the transaction.
 */
export async function writeAudits(
  tx: Tx,
  context: AuditContext,
  entries: readonly AuditInput[],
): Promise<void> {
  const json = (value: unknown): string | null => {
    const plain = toJson(value);
    return plain === undefined ? null : JSON.stringify(plain);
  };
  for (let start = 0; start < entries.length; start += 5_000) {
    const part = entries.slice(start, start + 5_000);
    await tx.$executeRaw`
      insert into "AuditEntry" ("actorType", "actorId", "actorLabel", "tenantId", action, "targetType",
        "targetId", before, after, "requestId", "configVersion")
      select ${context.principal.kind}, ${actorIdOf(context.principal)}, ${actorLabel(context.principal)},
        v.tenant, v.action, v.type, v.target, v.before::jsonb, v.after::jsonb, ${context.requestId},
        ${context.configVersion}::int
      from unnest(${part.map((e) => e.tenantId ?? null)}::text[], ${part.map((e) => e.action)}::text[],
                  ${part.map((e) => e.targetType)}::text[], ${part.map((e) => e.targetId ?? null)}::text[],
                  ${part.map((e) => json(e.before))}::text[], ${part.map((e) => json(e.after))}::text[])
           with ordinality as v(tenant, action, type, target, before, after, n)
      order by v.n`;
  }
}
