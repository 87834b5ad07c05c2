import "server-only";
import { hasRole, isOperator, type Principal, type Role } from "@/lib/shared/principal";
import type { Prisma } from "@/lib/generated/prisma/client";
import { tokenAuthority } from "@/lib/control/auth/policy/token-authority";
import { MAKER_SELECT, makerOf } from "@/lib/control/data/auth/token-makers";
import { db } from "@/lib/control/data/db";
import { tenantFor } from "@/lib/control/data/tenant-access";

// Tokens are listed by who may manage them: operators see all; a tenant's admins see the
// service tokens limited to that tenant alone and the tenant's admin tokens. A service token
// that also serves another tenant is not shown to members: its list would name that tenant.

export interface TokenRow {
  id: string;
  kind: "service" | "admin";
  name: string;
  prefix: string;
  /** service: tenant slugs or null for all; admin: the one tenant or null for operator */
  tenants: string[] | null;
  role: Role | "operator" | null;
  createdAt: Date;
  revokedAt: Date | null;
  /** why Sluice revoked it (e.g. "maker removed"); null when revoked by hand or not revoked */
  revokedReason: string | null;
  /** admin tokens: why it does not work though not revoked (e.g. "maker disabled") */
  ineffective: string | null;
  /** admin tokens: why it acts below its role (e.g. "maker's role is now viewer: acts as viewer") */
  capped: string | null;
  lastUsedAt: Date | null;
}

const serviceSelect = {
  id: true,
  name: true,
  prefix: true,
  createdAt: true,
  revokedAt: true,
  lastUsedAt: true,
  tenants: { select: { tenant: { select: { slug: true, id: true } } } },
} as const;

export async function listTokens(principal: Principal, tenantSlug: string | null): Promise<TokenRow[]> {
  return db().$transaction(async (tx) => {
    const tenant = tenantSlug ? await tenantFor(tx, principal, tenantSlug, "admin") : null;
    if (!tenant && !isOperator(principal)) return [];
    const services = await tx.serviceToken.findMany({
      where: tenant ? { tenants: { some: { tenantId: tenant.id }, every: { tenantId: tenant.id } } } : {},
      select: serviceSelect,
      orderBy: { createdAt: "desc" },
    });
    const admins = await tx.adminToken.findMany({
      where: tenant ? { tenantId: tenant.id } : {},
      include: { tenant: { select: { slug: true } }, user: MAKER_SELECT },
      orderBy: { createdAt: "desc" },
    });
    return [
      ...services.map((t): TokenRow => ({
        id: t.id,
        kind: "service",
        name: t.name,
        prefix: t.prefix,
        tenants: t.tenants.length ? t.tenants.map((x) => x.tenant.slug).sort() : null,
        role: null,
        createdAt: t.createdAt,
        revokedAt: t.revokedAt,
        revokedReason: null,
        ineffective: null,
        capped: null,
        lastUsedAt: t.lastUsedAt,
      })),
      ...admins.map(adminRow),
    ];
  });
}

type AdminTokenWithMaker = Prisma.AdminTokenGetPayload<{
  include: { tenant: { select: { slug: true } }; user: typeof MAKER_SELECT };
}>;

function adminRow(t: AdminTokenWithMaker): TokenRow {
  const authority = tokenAuthority({ ...t, maker: makerOf(t.user, t.tenantId) });
  return {
    id: t.id,
    kind: "admin",
    name: t.name,
    prefix: t.prefix,
    tenants: t.tenant ? [t.tenant.slug] : null,
    role: t.role ?? "operator",
    createdAt: t.createdAt,
    revokedAt: t.revokedAt,
    revokedReason: t.revokedReason,
    ineffective: !authority.ok && !t.revokedAt ? authority.reason : null,
    capped: authority.ok ? authority.note : null,
    lastUsedAt: t.lastUsedAt,
  };
}

/** May the principal manage this token? Only when it may see every tenant the token serves. */
export function mayManageToken(principal: Principal, tenantIds: readonly string[]): boolean {
  if (isOperator(principal)) return true;
  return tenantIds.length > 0 && tenantIds.every((id) => hasRole(principal, id, "admin"));
}
