import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { hasRole, isOperator, ROLE_RANK, type Principal, type Role } from "@/lib/auth/principal";
import { hashPassword } from "@/lib/auth/password";
import { db } from "@/lib/data/db";
import { runTenantChange } from "@/lib/data/config-change";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/data/errors";
import { tenantFor } from "@/lib/data/tenant-access";
import type { Tx } from "@/lib/data/tx";

// Members and roles of one tenant. Admins manage members; nobody grants more than they
// hold, nor touches someone who outranks them; a tenant always keeps an owner.

export const ROLES = ["owner", "admin", "editor", "viewer"] as const;
const roleSchema = z.enum(ROLES, { error: "must be owner, admin, editor or viewer" });

export const AddMemberInput = z.strictObject({
  email: z
    .email({ error: "must be an email address" })
    .max(254)
    .transform((e) => e.trim().toLowerCase()),
  role: roleSchema,
});
export type AddMemberInput = z.input<typeof AddMemberInput>;

export const ChangeRoleInput = z.strictObject({ userId: z.string().min(1).max(64), role: roleSchema });

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

export interface AddedMember {
  userId: string;
  /** set only when a new account was made: its first password, shown once */
  temporaryPassword: string | null;
}

export async function addMember(
  principal: Principal,
  tenantSlug: string,
  raw: AddMemberInput,
): Promise<AddedMember> {
  const input = AddMemberInput.parse(raw);
  const temporary = randomBytes(12).toString("base64url");
  const temporaryHash = await hashPassword(temporary);
  const { result } = await runTenantChange(tenantSlug, principal, null, async (tx, audit) => {
    const tenant = await tenantFor(tx, principal, tenantSlug, "admin");
    mayGrant(principal, tenant.id, input.role);
    let user = await tx.user.findUnique({ where: { email: input.email } });
    const created = !user;
    user ??= await tx.user.create({
      data: {
        email: input.email,
        name: input.email.split("@")[0] ?? input.email,
        passwordHash: temporaryHash,
      },
    });
    const existing = await tx.membership.findUnique({
      where: { userId_tenantId: { userId: user.id, tenantId: tenant.id } },
    });
    if (existing) throw new ConflictError(`${input.email} is already a member (${existing.role}).`, "email");
    await tx.membership.create({ data: { userId: user.id, tenantId: tenant.id, role: input.role } });
    await audit({
      action: "member.add",
      targetType: "member",
      targetId: user.id,
      tenantId: tenant.id,
      after: { email: input.email, role: input.role },
    });
    return { userId: user.id, temporaryPassword: created ? temporary : null };
  });
  return result;
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
