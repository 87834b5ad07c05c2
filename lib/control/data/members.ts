import "server-only";
import { z } from "zod";
import { hasRole, isOperator, ROLE_RANK, type Principal, type Role } from "@/lib/shared/principal";
import { db } from "@/lib/control/data/db";
import { runTenantChange } from "@/lib/control/data/config-change";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/control/errors/errors";
import { revokeMakerTokens } from "@/lib/control/data/maker-tokens";
import { tenantFor } from "@/lib/control/data/tenant-access";
import type { Tx } from "@/lib/control/data/tx";
import { safeText } from "@/lib/shared/safe-text";

// Members and roles of one tenant. Admins manage members; nobody grants more than they
// hold, nor touches someone who outranks them; a tenant always keeps an owner. New members
// come only through invitations (lib/data/invitations.ts): no tenant role makes accounts.
// A member's admin tokens act at most with the member's current role (token-authority.ts);
// removing the member revokes them.

export const ROLES = ["owner", "admin", "editor", "viewer"] as const;
const roleSchema = z.enum(ROLES, { error: "must be owner, admin, editor or viewer" });

export const ChangeRoleInput = z.strictObject({
  userId: safeText(z.string().min(1).max(64)),
  role: roleSchema,
});

export interface MemberRow {
  userId: string;
  email: string;
  name: string;
  role: Role;
  since: Date;
}

/** For sign-in by single sign-on only: the account holding this email, if it may sign in. */
export async function activeUserIdByEmail(email: string): Promise<string | null> {
  const user = await db().user.findUnique({ where: { email: email.trim().toLowerCase() } });
  return user && !user.disabledAt ? user.id : null;
}

export async function listMembers(principal: Principal, tenantSlug: string): Promise<MemberRow[]> {
  return db().$transaction(async (tx) => {
    const tenant = await tenantFor(tx, principal, tenantSlug, "viewer");
    const rows = await tx.membership.findMany({
      where: { tenantId: tenant.id },
      include: { user: { select: { email: true, name: true } } },
      orderBy: { createdAt: "asc" },
    });
    return rows.map((m) => ({
      userId: m.userId,
      email: m.user.email,
      name: m.user.name,
      role: m.role,
      since: m.createdAt,
    }));
  });
}

function mayGrant(principal: Principal, tenantId: string, role: Role): void {
  if (!hasRole(principal, tenantId, role))
    throw new ForbiddenError(`Your role cannot grant the ${role} role.`);
}

async function ownersLeft(tx: Tx, tenantId: string, excludingUserId: string): Promise<number> {
  return tx.membership.count({ where: { tenantId, role: "owner", userId: { not: excludingUserId } } });
}

export async function changeMemberRole(
  principal: Principal,
  tenantSlug: string,
  raw: z.input<typeof ChangeRoleInput>,
): Promise<void> {
  const input = ChangeRoleInput.parse(raw);
  await runTenantChange(tenantSlug, principal, null, async (tx, audit) => {
    const tenant = await tenantFor(tx, principal, tenantSlug, "admin");
    const member = await tx.membership.findUnique({
      where: { userId_tenantId: { userId: input.userId, tenantId: tenant.id } },
    });
    if (!member) throw new NotFoundError("No such member in this tenant.");
    if (member.role === input.role) return;
    mayGrant(principal, tenant.id, member.role);
    mayGrant(principal, tenant.id, input.role);
    if (member.role === "owner" && (await ownersLeft(tx, tenant.id, member.userId)) === 0)
      throw new ConflictError("A tenant needs at least one owner; make someone else owner first.", "role");
    await tx.membership.update({ where: { id: member.id }, data: { role: input.role } });
    await audit({
      action: "member.role",
      targetType: "member",
      targetId: member.userId,
      tenantId: tenant.id,
      before: { role: member.role },
      after: { role: input.role },
    });
  });
}

export async function removeMember(principal: Principal, tenantSlug: string, userId: string): Promise<void> {
  await runTenantChange(tenantSlug, principal, null, async (tx, audit) => {
    const tenant = await tenantFor(tx, principal, tenantSlug, "admin");
    const member = await tx.membership.findUnique({
      where: { userId_tenantId: { userId, tenantId: tenant.id } },
    });
    if (!member) throw new NotFoundError("No such member in this tenant.");
    mayGrant(principal, tenant.id, member.role);
    if (member.role === "owner" && (await ownersLeft(tx, tenant.id, userId)) === 0 && !isOperator(principal))
      throw new ConflictError("A tenant needs at least one owner; make someone else owner first.");
    await tx.membership.delete({ where: { id: member.id } });
    await revokeMakerTokens(tx, audit, tenant.id, userId, "maker removed");
    await audit({
      action: "member.remove",
      targetType: "member",
      targetId: userId,
      tenantId: tenant.id,
      before: { role: member.role },
      after: null,
    });
  });
}

export { ROLE_RANK };
