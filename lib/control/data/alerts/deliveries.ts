import "server-only";
import { hasRole, type Principal } from "@/lib/shared/principal";
import { errorCategory } from "@/lib/control/alerts/guard/redaction";
import { db } from "@/lib/control/data/db";
import { tenantFor } from "@/lib/control/data/tenant-access";

// The delivery log of a tenant (viewers too): each webhook message, its state, attempts and
// the last answer. Payloads are the tenant's own data; secrets never appear here. Below
// admin, an error shows only its kind (lib/alerts/redaction.ts): no resolved address.

export interface DeliveryView {
  id: string;
  event: string;
  rule: string;
  endpoint: string;
  status: string;
  attempts: number;
  responseCode: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  nextAttemptAt: Date;
}

export async function listAlertDeliveries(
  principal: Principal,
  slug: string,
  limit = 50,
): Promise<DeliveryView[]> {
  const tenant = await tenantFor(db(), principal, slug, "viewer");
  const fullErrors = hasRole(principal, tenant.id, "admin");
  const [rows, rules, endpoints] = await Promise.all([
    db().alertDelivery.findMany({
      where: { tenantId: tenant.id },
      orderBy: { createdAt: "desc" },
      take: Math.min(Math.max(1, limit), 200),
    }),
    db().alertRule.findMany({ where: { tenantId: tenant.id }, select: { id: true, name: true } }),
    db().alertEndpoint.findMany({ where: { tenantId: tenant.id }, select: { id: true, name: true } }),
  ]);
  const ruleNames = new Map(rules.map((r) => [r.id, r.name]));
  const endpointNames = new Map(endpoints.map((e) => [e.id, e.name]));
  return rows.map((d) => ({
    id: d.id,
    event: d.event,
    rule: ruleNames.get(d.ruleId) ?? d.ruleId,
    endpoint: endpointNames.get(d.endpointId) ?? d.endpointId,
    status: d.status,
    attempts: d.attempts,
    responseCode: d.responseCode,
    lastError: d.lastError === null || fullErrors ? d.lastError : errorCategory(d.lastError),
    createdAt: d.createdAt,
    deliveredAt: d.deliveredAt,
    nextAttemptAt: d.nextAttemptAt,
  }));
}
