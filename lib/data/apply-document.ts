import "server-only";
import type { LimitDoc, PlanDoc, RouteDoc, TenantDoc } from "@/lib/config/document";
import { resolveServiceLimit } from "@/lib/config/document/service-limit-schema";
import { limitToRow } from "@/lib/data/limit-rows";
import type { Tx } from "@/lib/data/tx";

// The writes of an import. Each replaces one entity's limits wholesale: limit rows carry no
// identity of their own (counters are keyed by where a limit is declared and its name).

type Attachment = { planId: string } | { tenantId: string } | { apiKeyId: string } | { routeId: string };

async function createLimits(tx: Tx, attachment: Attachment, limits: readonly LimitDoc[]): Promise<void> {
  if (limits.length === 0) return;
  await tx.limit.createMany({
    data: limits.map((limit, index) => ({ ...attachment, ...limitToRow(limit, index) })),
  });
}

export async function writePlan(tx: Tx, plan: PlanDoc): Promise<void> {
  const service = resolveServiceLimit(plan.service);
  const fields = {
    serviceChecksPerSecond: service?.checksPerSecond ?? null,
    serviceBurst: service?.burst ?? null,
  };
  const row = await tx.plan.upsert({
    where: { name: plan.name },
    create: { name: plan.name, ...fields },
    update: fields,
  });
  await tx.limit.deleteMany({ where: { planId: row.id } });
  await createLimits(tx, { planId: row.id }, plan.limits);
}

export async function writeRoutes(
  tx: Tx,
  tenantId: string | null,
  routes: readonly RouteDoc[],
): Promise<void> {
  await tx.route.deleteMany({ where: { tenantId } });
  for (const route of routes) {
    const row = await tx.route.create({
      data: { tenantId, scope: tenantId ?? "global", pattern: route.pattern },
    });
    await createLimits(tx, { routeId: row.id }, route.limits);
  }
}

/** Creates or updates the tenant so that it is exactly what the document says. */
export async function writeTenant(
  tx: Tx,
  tenant: TenantDoc,
  planIds: ReadonlyMap<string, string>,
): Promise<string> {
  const planId = planIds.get(tenant.plan);
  if (!planId) throw new Error(`plan ${tenant.plan} vanished during the import`);
  const fields = { name: tenant.name ?? tenant.slug, planId, status: tenant.status };
  const row = await tx.tenant.upsert({
    where: { slug: tenant.slug },
    create: { slug: tenant.slug, ...fields },
    update: fields,
  });
  await tx.limit.deleteMany({ where: { tenantId: row.id } });
  await createLimits(tx, { tenantId: row.id }, tenant.limits);
  await writeRoutes(tx, row.id, tenant.routes);
  const keys = await tx.apiKey.findMany({ where: { tenantId: row.id }, select: { id: true, name: true } });
  await tx.limit.deleteMany({ where: { apiKeyId: { in: keys.map((k) => k.id) } } });
  const keyIds = new Map(keys.map((k) => [k.name, k.id]));
  for (const key of tenant.keys) {
    const apiKeyId = keyIds.get(key.name);
    if (!apiKeyId) throw new Error(`key ${key.name} vanished during the import`);
    await createLimits(tx, { apiKeyId }, key.limits);
  }
  return row.id;
}
