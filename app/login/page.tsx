import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { z } from "zod";
import { LoginForm } from "@/components/auth/login-form";
import { oidcName } from "@/lib/control/auth/options";
import { currentUser } from "@/lib/control/auth/session";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

// next-auth redirects here with ?error=<code> after a failed single sign-on.
const Search = z.object({
  error: z
    .string()
    .regex(/^[A-Za-z_]{1,40}$/)
    .optional()
    .catch(undefined),
  // Where to go after signing in: a path on this app only (an invitation link, say).
  next: z
    .string()
    .regex(/^\/(?![/\\])[A-Za-z0-9/_-]{0,200}$/)
    .optional()
    .catch(undefined),
  notice: z.enum(["account-ready", "password-set"]).optional().catch(undefined),
});

const NOTICES = {
  "account-ready": "Your account is ready: sign in with your email and the password you chose.",
  "password-set": "Your new password is set: sign in with it.",
} as const;

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[]>>;
}) {
  const { error, next, notice } = Search.parse(await searchParams);
  if (await currentUser()) redirect(next ?? "/");
  return (
    <main className="login-wrap">
      <div className="panel">
        <h1>Sign in to Sluice</h1>
        {notice && (
          <p role="status" className="ok">
            {NOTICES[notice]}
          </p>
        )}
        <LoginForm oidcName={oidcName()} initialError={error ?? null} next={next ?? "/"} />
      </div>
    </main>
  );
}
