import "server-only";
import type { PlanDoc, RouteDoc } from "@/lib/control/config/document";
import { db } from "@/lib/control/data/db";
import { rowsToLimits } from "@/lib/control/data/limit-rows";
import { planDocOf } from "@/lib/control/data/read-document";

// The plans and global routes a document is validated against before its import (in the
// document worker): the same as the import reads, without the tenants. They are the
// operator's and every tenant's document refers to them, so no tenant scope applies.
export async function readValidationContext(): Promise<{ plans: PlanDoc[]; routes: RouteDoc[] }> {
  return db().$transaction(async (tx) => {
    const plans = await tx.plan.findMany({ include: { limits: true }, orderBy: { name: "asc" } });
    const routes = await tx.route.findMany({
      where: { tenantId: null },
      include: { limits: true },
      orderBy: { pattern: "asc" },
    });
    return {
      // as readDocument reads them, service limits included: the import compares the two
      plans: plans.map(planDocOf),
      routes: routes.map((route) => ({ pattern: route.pattern, limits: rowsToLimits(route.limits) })),
    };
  });
}
