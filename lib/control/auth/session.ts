import "server-only";
import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { authOptions } from "@/lib/control/auth/options";
import { loadUserPrincipal } from "@/lib/control/data/auth/users";
import type { Principal } from "@/lib/shared/principal";

type UserPrincipal = Extract<Principal, { kind: "user" }>;

/** The signed-in user, re-read from the database, or null. */
export async function currentUser(): Promise<UserPrincipal | null> {
  const session = await getServerSession(authOptions());
  const fields = session as { userId?: string; sessionVersion?: number } | null;
  // A session from before the account's last password change, reset or disabling is no session.
  return fields?.userId ? loadUserPrincipal(fields.userId, fields.sessionVersion ?? 0) : null;
}

/** For pages: the signed-in user, or a redirect to the login page. */
export async function requireUser(): Promise<UserPrincipal> {
  const user = await currentUser();
  if (!user) redirect("/login");
  return user;
}

/** Thrown by server actions called without a valid session; they answer it as "sign in again". */
export class SignedOutError extends Error {
  override name = "SignedOutError";
}

/** For server actions: the signed-in user re-read now, or SignedOutError (never a redirect). */
export async function actionUser(): Promise<UserPrincipal> {
  const user = await currentUser();
  if (!user) throw new SignedOutError("Your session has ended. Sign in again.");
  return user;
}
