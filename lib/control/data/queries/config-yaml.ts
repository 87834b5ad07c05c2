import "server-only";
import { stringify } from "yaml";
import { isOperator, type Principal } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import type { ConfigDocument } from "@/lib/control/config/document";
import { readDocument } from "@/lib/control/data/read-document";
import { tenantFor } from "@/lib/control/data/tenant-access";
import { ForbiddenError } from "@/lib/control/errors/errors";

// Export for the dashboard: the whole document for operators; for a member, only its one
// tenant (plans and global routes are not a tenant's to export or import).

export async function exportDocument(
  principal: Principal,
  tenantSlug: string | null,
): Promise<ConfigDocument> {
  return db().$transaction(async (tx) => {
    if (tenantSlug) {
      const tenant = await tenantFor(tx, principal, tenantSlug, "viewer");
      const doc = await readDocument(tx, [tenant.id]);
      return { tenants: doc.tenants ?? [] };
    }
    if (!isOperator(principal))
      throw new ForbiddenError("Only operators can export the whole configuration.");
    return readDocument(tx);
  });
}

export function toYaml(document: unknown): string {
  return stringify(document, { lineWidth: 0 });
}

export interface PlanUse {
  tenants: number;
  /** the first few tenants by slug, to name them */
  some: string[];
}

/**
 * The plans and global routes (the plans page), without the tenants' configuration: how many
 * tenants use each plan, and the first few by name. Operators only.
 */
export async function plansDocument(
  principal: Principal,
): Promise<{ doc: ConfigDocument; uses: Map<string, PlanUse> }> {
  if (!isOperator(principal)) throw new ForbiddenError("Only operators can read every plan.");
  const doc = await db().$transaction((tx) => readDocument(tx, []));
  const rows = await db().$queryRaw<Array<{ plan: string; tenants: number; some: string[] }>>`
    SELECT p."name" AS "plan", count(*)::int AS "tenants",
           (array_agg(t."slug" ORDER BY t."slug"))[1:${PLAN_USERS_NAMED}] AS "some"
      FROM "Tenant" t JOIN "Plan" p ON p."id" = t."planId" GROUP BY p."name"`;
  return { doc, uses: new Map(rows.map((r) => [r.plan, { tenants: r.tenants, some: r.some }])) };
}

/** tenants named beside a plan; the rest are counted and found by the tenants list's plan filter */
export const PLAN_USERS_NAMED = 5;
