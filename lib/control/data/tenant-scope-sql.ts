import "server-only";
import { isOperator, type Principal } from "@/lib/shared/principal";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * Which tenants the principal sees, as a condition over `"Tenant" t` (as roleIn decides):
 * every one for operators, a user's memberships, an admin token's one tenant, else none.
 * For the console's SQL over thousands of tenants, where listing them first would not do.
 */
export function visibleTenantsSql(principal: Principal): Prisma.Sql {
  if (isOperator(principal)) return Prisma.sql`TRUE`;
  if (principal.kind === "user") {
    const ids = [...principal.memberships.keys()];
    return Prisma.sql`t."id" = ANY(${ids}::text[])`;
  }
  if (principal.kind === "admin-token" && principal.tenantId)
    return Prisma.sql`t."id" = ${principal.tenantId}`;
  return Prisma.sql`FALSE`;
}
