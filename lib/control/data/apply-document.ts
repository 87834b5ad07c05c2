import "server-only";
import type { LimitDoc, PlanDoc, RouteDoc } from "@/lib/control/config/document";
import { resolveServiceLimit } from "@/lib/check/published/service-limit-schema";
import { limitToRow } from "@/lib/control/data/limit-rows";
import type { Tx } from "@/lib/control/data/tx";

// The plan and global route writes of an import (tenants: write-tenants.ts). Each replaces one entity's limits wholesale: limit rows carry no
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
