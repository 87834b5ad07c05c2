import "server-only";
import { z } from "zod";
import { actingUserId, hasRole, type Principal, type Role } from "@/lib/shared/principal";
import { newSecret, sha256Hex } from "@/lib/shared/secrets";
import { hashPassword } from "@/lib/shared/password";
import { normalizeEmail, runAccountChange } from "@/lib/control/data/account-change";
import { DisplayName, LinkSecret, NewPassword } from "@/lib/control/auth/policy/passwords";
import { ForbiddenError, NotFoundError } from "@/lib/control/errors/errors";
import { tenantFor } from "@/lib/control/data/tenant-access";
import type { Tx } from "@/lib/control/data/tx";

// Joining a tenant: an owner or admin invites an email with a role (never above their own);
// the answer is a one-time link, the same whether or not an account has that email. Only
// the person who opens the link acts: they set their own password for a new account, or,
// signed in as that very email, accept. Neither the page nor any answer tells whether the
// email has an account. The link's secret is stored as SHA-256 only.

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const ROLES = ["owner", "admin", "editor", "viewer"] as const;
const roleSchema = z.enum(ROLES, { error: "must be owner, admin, editor or viewer" });

export const InviteInput = z.strictObject({
  email: z.email({ error: "must be an email address" }).max(254).transform(normalizeEmail),
  role: roleSchema,
});
export type InviteInput = z.input<typeof InviteInput>;

export const NewAccountInput = z.strictObject({ name: DisplayName, password: NewPassword });

export interface CreatedInvitation {
  id: string;
  /** the link's secret: returned only now */
  secret: string;
  expiresAt: Date;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  createdAt: Date;
  expiresAt: Date;
}

export function mayGrant(principal: Principal, tenantId: string, role: Role): void {
  if (!hasRole(principal, tenantId, role))
    throw new ForbiddenError(`Your role cannot grant the ${role} role.`);
}

export async function createInvitation(
  principal: Principal,
  tenantSlug: string,
  raw: InviteInput,
): Promise<CreatedInvitation> {
  const input = InviteInput.parse(raw);
  const secret = newSecret("inv");
  const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
  return runAccountChange(principal, async (tx, audit) => {
    const tenant = await tenantFor(tx, principal, tenantSlug, "admin");
    mayGrant(principal, tenant.id, input.role);
    // Never looks at accounts: the answer cannot tell whether one has this email.
    // A newer invitation for the same email replaces a pending one.
    await tx.invitation.updateMany({
      where: { tenantId: tenant.id, email: input.email, acceptedAt: null, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    const row = await tx.invitation.create({
      data: {
        tenantId: tenant.id,
        email: input.email,
        role: input.role,
        hash: secret.hash,
        invitedBy: actingUserId(principal),
        expiresAt,
      },
    });
    await audit({
      action: "invitation.create",
      targetType: "invitation",
      targetId: row.id,
      tenantId: tenant.id,
      after: { email: input.email, role: input.role, expiresAt },
    });
    return { id: row.id, secret: secret.secret, expiresAt };
  });
}

export async function listInvitations(
  principal: Principal,
  tenantSlug: string,
): Promise<PendingInvitation[]> {
  return runAccountChange(principal, async (tx) => {
    const tenant = await tenantFor(tx, principal, tenantSlug, "admin");
    return tx.invitation.findMany({
      where: { tenantId: tenant.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
      select: { id: true, email: true, role: true, createdAt: true, expiresAt: true },
      orderBy: { createdAt: "asc" },
    });
  });
}

export async function revokeInvitation(principal: Principal, tenantSlug: string, id: string): Promise<void> {
  await runAccountChange(principal, async (tx, audit) => {
    const tenant = await tenantFor(tx, principal, tenantSlug, "admin");
    const row = await tx.invitation.findFirst({ where: { id, tenantId: tenant.id } });
    if (!row) throw new NotFoundError("No such invitation in this tenant.");
    mayGrant(principal, tenant.id, row.role);
    if (row.acceptedAt || row.revokedAt) return;
    await tx.invitation.update({ where: { id: row.id }, data: { revokedAt: new Date() } });
    await audit({
      action: "invitation.revoke",
      targetType: "invitation",
      targetId: row.id,
      tenantId: tenant.id,
      before: { email: row.email, role: row.role },
    });
  });
}

export interface InvitationView {
  tenantName: string;
  tenantSlug: string;
  email: string;
  role: Role;
  expiresAt: Date;
}

const INVALID = "This invitation link is not valid: it was used, revoked, has expired or was mistyped.";
const NO_NEW_ACCOUNT =
  "No account was created: this link is not valid (used, revoked, expired or mistyped), or its email " +
  "cannot have a new account. If you already have an account with that email, sign in with it and open " +
  "this link again.";

async function usableInvitation(tx: Tx, secret: string) {
  const parsed = LinkSecret.safeParse(secret);
  if (!parsed.success || !parsed.data.startsWith("inv_")) return null;
  const row = await tx.invitation.findUnique({
    where: { hash: sha256Hex(parsed.data) },
    include: { tenant: { select: { name: true, slug: true } } },
  });
  if (!row || row.acceptedAt || row.revokedAt || row.expiresAt.getTime() <= Date.now()) return null;
  return row;
}

/** For the invitation page: what the link offers, or null when it is not usable. */
export async function viewInvitation(secret: string): Promise<InvitationView | null> {
  const row = await runAccountChange({ kind: "system", label: "invitation" }, (tx) =>
    usableInvitation(tx, secret),
  );
  return (
    row && {
      tenantName: row.tenant.name,
      tenantSlug: row.tenant.slug,
      email: row.email,
      role: row.role,
      expiresAt: row.expiresAt,
    }
  );
}

/** Spends the link once: a second use, even concurrent, finds it taken. */
async function spend(tx: Tx, id: string): Promise<void> {
  const taken = await tx.invitation.updateMany({
    where: { id, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    data: { acceptedAt: new Date() },
  });
  if (taken.count !== 1) throw new NotFoundError(INVALID);
}

/** The invited person makes their account with their own password. */
export async function acceptAsNewAccount(
  secret: string,
  raw: z.input<typeof NewAccountInput>,
): Promise<{ email: string }> {
  const input = NewAccountInput.parse(raw);
  const passwordHash = await hashPassword(input.password);
  const principal: Principal = { kind: "system", label: "invitation link" };
  return runAccountChange(principal, async (tx, audit) => {
    const invitation = await usableInvitation(tx, secret);
    // An email that has an account fails exactly as a spent link does, and leaves the link
    // usable: the answer must not tell the link's holder whether that account exists.
    if (
      !invitation ||
      (await tx.user.findUnique({ where: { email: invitation.email }, select: { id: true } }))
    )
      throw new NotFoundError(NO_NEW_ACCOUNT);
    await spend(tx, invitation.id);
    const user = await tx.user.create({
      data: {
        email: invitation.email,
        name: input.name,
        passwordHash,
        memberships: { create: [{ tenantId: invitation.tenantId, role: invitation.role }] },
      },
    });
    await audit({
      action: "invitation.accept",
      targetType: "member",
      targetId: user.id,
      tenantId: invitation.tenantId,
      after: { email: invitation.email, role: invitation.role, newAccount: true },
    });
    return { email: invitation.email };
  });
}

/** A signed-in account joins, only when the invitation was made for its own email. */
export async function acceptAsSignedIn(
  principal: Principal,
  secret: string,
): Promise<{ tenantSlug: string }> {
  if (principal.kind !== "user") throw new ForbiddenError("Sign in to accept an invitation.");
  return runAccountChange(principal, async (tx, audit) => {
    const invitation = await usableInvitation(tx, secret);
    if (!invitation) throw new NotFoundError(INVALID);
    if (invitation.email !== normalizeEmail(principal.email)) {
      throw new ForbiddenError(
        `This invitation is for ${invitation.email}; you are signed in as ${principal.email}.`,
      );
    }
    await spend(tx, invitation.id);
    const existing = await tx.membership.findUnique({
      where: { userId_tenantId: { userId: principal.id, tenantId: invitation.tenantId } },
    });
    // Already a member: the role stays what it is (raising it is a role change, not a link).
    if (!existing) {
      await tx.membership.create({
        data: { userId: principal.id, tenantId: invitation.tenantId, role: invitation.role },
      });
    }
    await audit({
      action: "invitation.accept",
      targetType: "member",
      targetId: principal.id,
      tenantId: invitation.tenantId,
      after: { email: invitation.email, role: existing?.role ?? invitation.role, newAccount: false },
    });
    return { tenantSlug: invitation.tenant.slug };
  });
}
