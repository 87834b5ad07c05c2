import "server-only";
import { cookies } from "next/headers";
import { decode, encode } from "next-auth/jwt";
import { env } from "@/lib/shared/env";
import { SESSION_MAX_AGE_S, sessionCookie } from "@/lib/control/auth/options";

// After a password change the account's session version moves on, which ends every session
// carrying the old one, this one included. The session that made the change stays signed
// in: a server action re-issues its own cookie with the new version (same name and options
// as next-auth's, same secret), so only the OTHER sessions end.

export async function reissueSession(sessionVersion: number): Promise<void> {
  const secret = env().NEXTAUTH_SECRET;
  if (!secret) return;
  const { name, secure } = sessionCookie();
  const jar = await cookies();
  const current = jar.get(name)?.value;
  const token = current ? await decode({ token: current, secret }) : null;
  if (!token?.sub) return;
  const value = await encode({ token: { ...token, sv: sessionVersion }, secret, maxAge: SESSION_MAX_AGE_S });
  jar.set(name, value, { httpOnly: true, sameSite: "lax", path: "/", secure, maxAge: SESSION_MAX_AGE_S });
}
