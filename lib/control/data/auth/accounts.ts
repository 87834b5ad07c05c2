import "server-only";
import { z } from "zod";
import { safeText } from "@/lib/shared/safe-text";
import { isOperator, type Principal } from "@/lib/shared/principal";
import { hashPassword, verifyPassword } from "@/lib/shared/password";
import { newSecret, sha256Hex } from "@/lib/shared/secrets";
import { runAccountChange } from "@/lib/control/data/account-change";
import { LinkSecret, NewPassword } from "@/lib/control/auth/policy/passwords";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/control/errors/errors";
import type { Tx } from "@/lib/control/data/tx";

// A person's own account: they change their password (the current one required); an
// operator disables or enables accounts and issues one-time reset links, and never sees
// or sets a password. Every password change, reset or disabling bumps the account's
// session version, which ends the sessions that carry the old one.

export const RESET_TTL_MS = 24 * 60 * 60 * 1000;

export const ChangePasswordInput = z.strictObject({
  current: z.string({ error: "must be text" }).min(1, { error: "is required" }).max(1024),
  password: NewPassword,
});

const userId = safeText(z.string().min(1).max(64));

export type ChangeOutcome = { ok: true; sessionVersion: number } | { ok: false };

/** The signed-in user's own password; { ok: false } when the current one is wrong. */
export async function changeOwnPassword(
  principal: Principal,
  raw: z.input<typeof ChangePasswordInput>,
): Promise<ChangeOutcome> {
  const input = ChangePasswordInput.parse(raw);
  if (principal.kind !== "user")
    throw new ForbiddenError("Only a signed-in user changes their own password.");
  const passwordHash = await hashPassword(input.password);
  return runAccountChange(principal, async (tx, audit) => {
    const user = await tx.user.findUnique({ where: { id: principal.id } });
    if (!user || user.disabledAt) throw new ForbiddenError("This account may not sign in.");
    if (!(await verifyPassword(input.current, user.passwordHash))) return { ok: false };
    const updated = await tx.user.update({
      where: { id: user.id, sessionVersion: user.sessionVersion },
      data: { passwordHash, sessionVersion: { increment: 1 } },
    });
    await audit({ action: "user.password-change", targetType: "user", targetId: user.id });
    return { ok: true, sessionVersion: updated.sessionVersion };
  });
}

export interface UserRow {
  id: string;
  email: string;
  name: string;
  isOperator: boolean;
  disabled: boolean;
  tenants: number;
  createdAt: Date;
}

function operatorOnly(principal: Principal): void {
  if (!isOperator(principal)) throw new NotFoundError("No such page.");
}

export async function listUsers(principal: Principal): Promise<UserRow[]> {
  operatorOnly(principal);
  return runAccountChange(principal, async (tx) => {
    const rows = await tx.user.findMany({
      orderBy: { email: "asc" },
      select: {
        id: true,
        email: true,
        name: true,
        isOperator: true,
        disabledAt: true,
        createdAt: true,
        _count: { select: { memberships: true } },
      },
    });
    return rows.map((u) => ({
      id: u.id,
      email: u.email,
      name: u.name,
      isOperator: u.isOperator,
      disabled: u.disabledAt !== null,
      tenants: u._count.memberships,
      createdAt: u.createdAt,
    }));
  });
}

async function targetUser(tx: Tx, id: string) {
  const user = await tx.user.findUnique({ where: { id: userId.parse(id) } });
  if (!user) throw new NotFoundError("No such account.");
  return user;
}

/** Disabled: cannot sign in, its sessions end, admin tokens it made stop working. */
export async function setUserDisabled(principal: Principal, id: string, disabled: boolean): Promise<void> {
  operatorOnly(principal);
  await runAccountChange(principal, async (tx, audit) => {
    const user = await targetUser(tx, id);
    if (disabled && principal.kind === "user" && principal.id === user.id)
      throw new ConflictError("You cannot disable your own account.");
    if ((user.disabledAt !== null) === disabled) return;
    await tx.user.update({
      where: { id: user.id },
      data: disabled ? { disabledAt: new Date(), sessionVersion: { increment: 1 } } : { disabledAt: null },
    });
    await audit({ action: disabled ? "user.disable" : "user.enable", targetType: "user", targetId: user.id });
  });
}

/** A one-time link for the account's owner to set a new password; earlier unused ones end. */
export async function createResetLink(
  principal: Principal,
  id: string,
): Promise<{ secret: string; expiresAt: Date }> {
  operatorOnly(principal);
  const secret = newSecret("rst");
  const expiresAt = new Date(Date.now() + RESET_TTL_MS);
  await runAccountChange(principal, async (tx, audit) => {
    const user = await targetUser(tx, id);
    await tx.passwordReset.updateMany({
      where: { userId: user.id, usedAt: null },
      data: { usedAt: new Date() },
    });
    await tx.passwordReset.create({
      data: {
        userId: user.id,
        hash: secret.hash,
        createdBy: principal.kind === "user" ? principal.id : principal.kind,
        expiresAt,
      },
    });
    await audit({ action: "user.reset-link", targetType: "user", targetId: user.id, after: { expiresAt } });
  });
  return { secret: secret.secret, expiresAt };
}

const INVALID = "This reset link is not valid: it was used, replaced, has expired or was mistyped.";

async function usableReset(tx: Tx, secret: string) {
  const parsed = LinkSecret.safeParse(secret);
  if (!parsed.success || !parsed.data.startsWith("rst_")) return null;
  const row = await tx.passwordReset.findUnique({
    where: { hash: sha256Hex(parsed.data) },
    include: { user: { select: { email: true } } },
  });
  return row && !row.usedAt && row.expiresAt.getTime() > Date.now() ? row : null;
}

const linkPrincipal: Principal = { kind: "system", label: "password reset link" };

export async function viewResetLink(secret: string): Promise<{ email: string } | null> {
  const row = await runAccountChange(linkPrincipal, (tx) => usableReset(tx, secret));
  return row && { email: row.user.email };
}

/** Sets the new password once; every session of the account ends. */
export async function redeemResetLink(secret: string, raw: { password: string }): Promise<{ email: string }> {
  const { password } = z.strictObject({ password: NewPassword }).parse(raw);
  const passwordHash = await hashPassword(password);
  return runAccountChange(linkPrincipal, async (tx, audit) => {
    const row = await usableReset(tx, secret);
    if (!row) throw new NotFoundError(INVALID);
    const taken = await tx.passwordReset.updateMany({
      where: { id: row.id, usedAt: null },
      data: { usedAt: new Date() },
    });
    if (taken.count !== 1) throw new NotFoundError(INVALID);
    await tx.user.update({
      where: { id: row.userId },
      data: { passwordHash, sessionVersion: { increment: 1 } },
    });
    await audit({ action: "user.password-reset", targetType: "user", targetId: row.userId });
    return { email: row.user.email };
  });
}
