import "server-only";
import { isOperator, roleIn, type Principal, type Role } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";

export interface TenantListRow {
  id: string;
  slug: string;
  name: string;
  plan: string;
  status: "active" | "suspended";
  /** the viewer's role here, "operator" for operators */
  role: Role | "operator";
  keys: number;
}

/** The tenants this principal may see: every one for operators, else its memberships. */
export async function listTenants(principal: Principal): Promise<TenantListRow[]> {
  const where = isOperator(principal)
    ? {}
    : principal.kind === "user"
      ? { id: { in: [...principal.memberships.keys()] } }
      : principal.kind === "admin-token" && principal.tenantId
        ? { id: principal.tenantId }
        : { id: { in: [] } };
  const rows = await db().tenant.findMany({
    where,
    select: {
      id: true,
      slug: true,
      name: true,
      status: true,
      plan: { select: { name: true } },
      _count: { select: { apiKeys: { where: { revokedAt: null } } } },
    },
    orderBy: { slug: "asc" },
  });
  return rows.flatMap((t) => {
    const role = roleIn(principal, t.id);
    if (!role) return [];
    return [
      {
        id: t.id,
        slug: t.slug,
        name: t.name,
        plan: t.plan.name,
        status: t.status,
        role,
        keys: t._count.apiKeys,
      },
    ];
  });
}

/** Plan names, for the tenant forms' plan picker. */
export async function listPlanNames(): Promise<string[]> {
  const plans = await db().plan.findMany({ select: { name: true }, orderBy: { name: "asc" } });
  return plans.map((p) => p.name);
}
