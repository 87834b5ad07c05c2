import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/control/data/db";

// What the evaluator and the delivery worker (lib/alerts) read and write. They act for no
// principal but always name the tenant of each row they touch. Exactly-once comes from
// PostgreSQL: at most one open incident per rule (a partial unique index) and one delivery
// per incident and event (a unique constraint), so evaluators on several servers that see
// the same change queue one message; deliveries are claimed with FOR UPDATE SKIP LOCKED.

export interface ActiveRule {
  id: string;
  tenantId: string;
  tenantSlug: string;
  name: string;
  kind: string;
  limitName: string | null;
  keyId: string | null;
  route: string | null;
  thresholdPct: number | null;
  forSeconds: number;
  endpointId: string;
}

export interface OpenIncident {
  id: string;
  ruleId: string;
  tenantId: string;
  firedAt: Date;
  value: number;
}

export async function activeRules(): Promise<ActiveRule[]> {
  const rows = await db().alertRule.findMany({
    where: { disabledAt: null, endpoint: { disabledAt: null }, tenant: { status: "active" } },
    include: { tenant: { select: { slug: true } } },
  });
  return rows.map(({ tenant, createdAt: _c, disabledAt: _d, ...r }) => ({ ...r, tenantSlug: tenant.slug }));
}

export async function openIncidents(): Promise<OpenIncident[]> {
  return db().alertIncident.findMany({
    where: { resolvedAt: null },
    select: { id: true, ruleId: true, tenantId: true, firedAt: true, value: true },
  });
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

/** A message body as stored (plain JSON). */
export type JsonPayload = Prisma.InputJsonValue;
export type PayloadOf = (incident: { id: string; firedAt: Date; resolvedAt: Date | null }) => JsonPayload;

/** Opens an incident and queues its "firing" message; null when one is open already. */
export async function fireIncident(
  rule: Pick<ActiveRule, "id" | "tenantId" | "endpointId">,
  value: number,
  payload: PayloadOf,
): Promise<string | null> {
  try {
    return await db().$transaction(async (tx) => {
      const incident = await tx.alertIncident.create({
        data: { tenantId: rule.tenantId, ruleId: rule.id, value },
      });
      await tx.alertDelivery.create({
        data: {
          tenantId: rule.tenantId,
          endpointId: rule.endpointId,
          ruleId: rule.id,
          incidentId: incident.id,
          event: "firing",
          payload: payload(incident),
        },
      });
      return incident.id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** Resolves an open incident and queues its "resolved" message; false when already resolved. */
export async function resolveIncident(
  incident: OpenIncident,
  endpointId: string,
  payload: PayloadOf,
): Promise<boolean> {
  try {
    return await db().$transaction(async (tx) => {
      const resolvedAt = new Date();
      const { count } = await tx.alertIncident.updateMany({
        where: { id: incident.id, tenantId: incident.tenantId, resolvedAt: null },
        data: { resolvedAt },
      });
      if (count === 0) return false;
      await tx.alertDelivery.create({
        data: {
          tenantId: incident.tenantId,
          endpointId,
          ruleId: incident.ruleId,
          incidentId: incident.id,
          event: "resolved",
          payload: payload({ id: incident.id, firedAt: incident.firedAt, resolvedAt }),
        },
      });
      return true;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** A rule's endpoint and name, also for a disabled rule (its open incident still resolves). */
export async function ruleById(id: string) {
  return db().alertRule.findUnique({ where: { id }, include: { tenant: { select: { slug: true } } } });
}

export interface ClaimedDelivery {
  id: string;
  tenantId: string;
  endpointId: string;
  event: string;
  payload: Prisma.JsonValue;
  attempts: number;
}

/** Takes up to `limit` due deliveries for `lockMs`; another worker skips them meanwhile. */
export async function claimDueDeliveries(limit: number, lockMs: number): Promise<ClaimedDelivery[]> {
  return db().$queryRaw<ClaimedDelivery[]>`
    UPDATE "AlertDelivery" d SET "lockedUntil" = now() + make_interval(secs => ${lockMs / 1000}::float8)
    WHERE d.id IN (
      SELECT id FROM "AlertDelivery"
      WHERE status = 'pending' AND "nextAttemptAt" <= now()
        AND ("lockedUntil" IS NULL OR "lockedUntil" < now())
      ORDER BY "nextAttemptAt" LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING d.id, d."tenantId", d."endpointId", d.event, d.payload, d.attempts`;
}

export async function endpointForDelivery(tenantId: string, endpointId: string) {
  return db().alertEndpoint.findFirst({ where: { id: endpointId, tenantId } });
}

export interface AttemptRecord {
  status: "pending" | "delivered" | "failed";
  responseCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
}

export async function recordAttempt(delivery: ClaimedDelivery, record: AttemptRecord): Promise<void> {
  await db().alertDelivery.updateMany({
    where: { id: delivery.id, tenantId: delivery.tenantId, status: "pending" },
    data: {
      status: record.status,
      attempts: { increment: 1 },
      responseCode: record.responseCode,
      lastError: record.lastError,
      lockedUntil: null,
      ...(record.nextAttemptAt ? { nextAttemptAt: record.nextAttemptAt } : {}),
      ...(record.status === "delivered" ? { deliveredAt: new Date() } : {}),
    },
  });
}

/** Forgets delivered or failed messages and resolved incidents older than `beforeMs` ago. */
export async function pruneAlertHistory(beforeMs: number): Promise<number> {
  const before = new Date(Date.now() - beforeMs);
  const [deliveries] = await Promise.all([
    db().alertDelivery.deleteMany({ where: { createdAt: { lt: before }, status: { not: "pending" } } }),
    db().alertIncident.deleteMany({ where: { resolvedAt: { lt: before } } }),
  ]);
  return deliveries.count;
}
