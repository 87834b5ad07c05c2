import "server-only";
import type { NextAuthOptions } from "next-auth";
import type { OAuthConfig } from "next-auth/providers/oauth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { env } from "@/lib/shared/env";
import { checkCredentials, sessionVersionOf } from "@/lib/control/data/auth/users";
import { admitLoginAttempt, recordLoginFailure, sleep } from "@/lib/control/auth/login-limit";
import { clientAddressOf } from "@/lib/shared/http/client-address";
import { activeUserIdByEmail } from "@/lib/control/data/members";

const CredentialsSchema = z.object({
  email: z.email().max(254),
  password: z.string().min(1).max(1024),
});

/** Messages the login form shows; next-auth hands a thrown error's message to the client. */
export const LOGIN_ERRORS = {
  rateLimited: "too_many_attempts",
  storeUnavailable: "login_unavailable",
} as const;

interface OidcProfile {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export function oidcName(): string | null {
  const settings = env();
  return settings.OIDC_ISSUER ? settings.OIDC_NAME : null;
}

// Single sign-on proves an email address; access still comes from a Sluice account with that
// email (made by an operator), so nobody gets a tenant just by holding an IdP login.
function oidcProvider(): OAuthConfig<OidcProfile> | null {
  const settings = env();
  if (!settings.OIDC_ISSUER || !settings.OIDC_CLIENT_ID || !settings.OIDC_CLIENT_SECRET) return null;
  return {
    id: "oidc",
    name: settings.OIDC_NAME,
    type: "oauth",
    wellKnown: `${settings.OIDC_ISSUER.replace(/\/$/, "")}/.well-known/openid-configuration`,
    clientId: settings.OIDC_CLIENT_ID,
    clientSecret: settings.OIDC_CLIENT_SECRET,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    checks: ["pkce", "state", "nonce"],
    profile: (profile) => ({ id: profile.sub, email: profile.email ?? null, name: profile.name ?? null }),
  };
}

export const SESSION_MAX_AGE_S = 12 * 60 * 60;

/** The session cookie's name and options (also used to re-issue it after a password change). */
export function sessionCookie(): { name: string; secure: boolean } {
  const secure = (env().NEXTAUTH_URL ?? "").startsWith("https://");
  return { name: `${secure ? "__Secure-" : ""}next-auth.session-token`, secure };
}

export function authOptions(): NextAuthOptions {
  const settings = env();
  const { name: cookieName, secure } = sessionCookie();
  const oidc = oidcProvider();
  return {
    secret: settings.NEXTAUTH_SECRET,
    // Credentials sign-in requires JWT sessions; roles are re-read from the database per request.
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
    pages: { signIn: "/login", error: "/login" },
    useSecureCookies: secure,
    cookies: {
      sessionToken: {
        name: cookieName,
        // httpOnly: scripts never read it; Lax: sent on top-level navigation, not cross-site posts.
        options: { httpOnly: true, sameSite: "lax", path: "/", secure },
      },
    },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
        },
        async authorize(raw, request) {
          const parsed = CredentialsSchema.safeParse(raw);
          if (!parsed.success) return null;
          const { email, password } = parsed.data;
          // The address server.ts stamped from the socket (lib/http/client-address.ts): next-auth
          // hands authorize() the request's headers only.
          const address = clientAddressOf(request?.headers);
          const verdict = await admitLoginAttempt(email, address);
          if (!verdict.ok) {
            throw new Error(
              verdict.reason === "rate_limited" ? LOGIN_ERRORS.rateLimited : LOGIN_ERRORS.storeUnavailable,
            );
          }
          await sleep(verdict.delayMs);
          const userId = await checkCredentials(email, password);
          if (!userId) await recordLoginFailure(email, address);
          return userId ? { id: userId, email } : null;
        },
      }),
      ...(oidc ? [oidc] : []),
    ],
    callbacks: {
      async signIn({ account, user, profile }) {
        if (account?.provider !== "oidc") return true;
        const verified = (profile as OidcProfile | undefined)?.email_verified !== false;
        return verified && !!user.email && (await activeUserIdByEmail(user.email)) !== null;
      },
      async jwt({ token, user, account }) {
        if (!user) return token;
        const id =
          account?.provider === "oidc" && user.email ? await activeUserIdByEmail(user.email) : user.id;
        // The account's session generation at sign-in: a later password change, reset or
        // disabling bumps it, and every request compares (lib/auth/session.ts).
        const version = id ? await sessionVersionOf(id) : null;
        token.sub = version === null ? undefined : (id ?? undefined);
        token.sv = version ?? undefined;
        return token;
      },
      session({ session, token }) {
        return { ...session, userId: token.sub, sessionVersion: typeof token.sv === "number" ? token.sv : 0 };
      },
    },
  };
}
