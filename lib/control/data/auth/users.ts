import "server-only";
import { db } from "@/lib/control/data/db";
import type { Principal, Role } from "@/lib/shared/principal";
import { verifyPassword } from "@/lib/shared/password";

type UserPrincipal = Extract<Principal, { kind: "user" }>;

// Re-read on every request: a demotion or removal takes effect at once, whatever the JWT says.
// With a session's version: a session from before a password change, reset or disabling ends.
export async function loadUserPrincipal(
  userId: string,
  sessionVersion?: number,
): Promise<UserPrincipal | null> {
  const user = await db().user.findUnique({
    where: { id: userId },
    include: { memberships: { select: { tenantId: true, role: true } } },
  });
  if (!user || user.disabledAt) return null;
  if (sessionVersion !== undefined && sessionVersion !== user.sessionVersion) return null;
  return {
    kind: "user",
    id: user.id,
    email: user.email,
    name: user.name,
    isOperator: user.isOperator,
    memberships: new Map(user.memberships.map((m): [string, Role] => [m.tenantId, m.role])),
    timeZone: user.timeZone,
  };
}

/** Returns the user id when the credentials are right; spends the same time when the user is unknown. */
export async function checkCredentials(email: string, password: string): Promise<string | null> {
  const user = await db().user.findUnique({ where: { email: email.trim().toLowerCase() } });
  const stored = user && !user.disabledAt ? user.passwordHash : DUMMY_HASH;
  const ok = await verifyPassword(password, stored);
  return ok && user && !user.disabledAt ? user.id : null;
}

/** At sign-in: the session generation the new session carries; null when it may not sign in. */
export async function sessionVersionOf(userId: string): Promise<number | null> {
  const user = await db().user.findUnique({
    where: { id: userId },
    select: { sessionVersion: true, disabledAt: true },
  });
  return user && !user.disabledAt ? user.sessionVersion : null;
}

// A valid hash of a random password, so unknown emails cost a real scrypt too.
const DUMMY_HASH = "scrypt$32768$8$1$c2x1aWNlLWR1bW15LXNhbHQ$0Yw8Qy0f3u5c7pD1m0mY8d6WwqF2o8d8mJq4mV0m3yA";

export interface SeedUser {
  email: string;
  name: string;
  passwordHash: string;
  isOperator: boolean;
  memberships: { tenantId: string; role: Role }[];
}

/** Creates the user when missing; an existing user keeps its password and memberships. */
export async function ensureUser(user: SeedUser): Promise<{ created: boolean }> {
  const existing = await db().user.findUnique({ where: { email: user.email } });
  if (existing) return { created: false };
  await db().user.create({
    data: {
      email: user.email,
      name: user.name,
      passwordHash: user.passwordHash,
      isOperator: user.isOperator,
      memberships: { create: user.memberships },
    },
  });
  return { created: true };
}

/** Makes the stored password match the one given by automation (SLUICE_ADMIN_PASSWORD). */
export async function syncPassword(
  email: string,
  password: string,
  hash: () => Promise<string>,
): Promise<boolean> {
  const user = await db().user.findUnique({ where: { email } });
  if (!user || (await verifyPassword(password, user.passwordHash))) return false;
  await db().user.update({ where: { id: user.id }, data: { passwordHash: await hash() } });
  return true;
}
