import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { z } from "zod";
import { LoginForm } from "@/components/auth/login-form";
import { oidcName } from "@/lib/auth/options";
import { currentUser } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

// next-auth redirects here with ?error=<code> after a failed single sign-on.
const Search = z.object({
  error: z
    .string()
    .regex(/^[A-Za-z_]{1,40}$/)
    .optional()
    .catch(undefined),
});

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[]>>;
}) {
  if (await currentUser()) redirect("/");
  const { error } = Search.parse(await searchParams);
  return (
    <main className="login-wrap">
      <div className="panel">
        <h1>Sign in to Sluice</h1>
        <LoginForm oidcName={oidcName()} initialError={error ?? null} />
      </div>
    </main>
  );
}
