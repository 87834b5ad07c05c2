"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useHydrated } from "@/components/forms/use-hydrated";

// Error codes thrown by authorize() in lib/control/auth/options.ts (LOGIN_ERRORS), as sentences.
const MESSAGES: Record<string, string> = {
  too_many_attempts: "Too many sign-in attempts. Wait a few minutes, then try again.",
  login_unavailable:
    "Sign-in is unavailable right now (the rate-limit store cannot be reached). Try again shortly.",
  AccessDenied: "Single sign-on worked, but no Sluice account has that email. Ask an operator to add you.",
};
const WRONG = "That email and password do not match an account. Check both and try again.";

export function LoginForm({
  oidcName,
  initialError,
  next = "/",
}: {
  oidcName: string | null;
  initialError: string | null;
  /** a path on this app, checked by the login page */
  next?: string;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(initialError ? (MESSAGES[initialError] ?? WRONG) : null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setError(null);
    const form = new FormData(event.currentTarget);
    const result = await signIn("credentials", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      redirect: false,
    });
    setPending(false);
    if (result?.ok && !result.error) {
      router.replace(next);
      router.refresh();
    } else {
      setError(MESSAGES[result?.error ?? ""] ?? WRONG);
    }
  }

  return (
    <>
      <form onSubmit={onSubmit} noValidate>
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="username" required autoFocus />
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <p>
          <button type="submit" disabled={pending || !hydrated}>
            {pending ? "Signing in…" : "Sign in"}
          </button>
        </p>
      </form>
      {oidcName && (
        <p>
          <button
            type="button"
            className="secondary"
            onClick={() => void signIn("oidc", { callbackUrl: next })}
          >
            Continue with {oidcName}
          </button>
        </p>
      )}
    </>
  );
}
