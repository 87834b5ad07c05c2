import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { actorIdOf, actorLabel, type Principal } from "@/lib/auth/principal";
import type { Tx } from "@/lib/data/tx";

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
