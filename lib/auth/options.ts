import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { env } from "@/lib/env";
import { checkCredentials } from "@/lib/auth/users";

const CredentialsSchema = z.object({
  email: z.email().max(254),
  password: z.string().min(1).max(1024),
});

export function authOptions(): NextAuthOptions {
  const settings = env();
  const secure = (settings.NEXTAUTH_URL ?? "").startsWith("https://");
  return {
    secret: settings.NEXTAUTH_SECRET,
    // Credentials sign-in requires JWT sessions; roles are re-read from the database per request.
    session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
    pages: { signIn: "/login" },
    useSecureCookies: secure,
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(raw) {
          const parsed = CredentialsSchema.safeParse(raw);
          if (!parsed.success) return null;
          const userId = await checkCredentials(parsed.data.email, parsed.data.password);
          return userId ? { id: userId, email: parsed.data.email } : null;
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) token.sub = user.id;
        return token;
      },
      session({ session, token }) {
        return { ...session, userId: token.sub };
      },
    },
  };
}
