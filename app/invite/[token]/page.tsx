import type { Metadata } from "next";
import Link from "next/link";
import { currentUser } from "@/lib/control/auth/session";
import { viewInvitation } from "@/lib/control/data/invitations";
import { SimpleForm } from "@/components/forms/simple-form";
import { acceptInvitationAction, createAccountAction } from "@/app/invite/actions";
import { formatDate } from "@/app/(dashboard)/_lib/load";

export const metadata: Metadata = { title: "Invitation", referrer: "no-referrer" };
export const dynamic = "force-dynamic";

// Opened by the invited person. New to Sluice: they choose their own name and password.
// With an account already: they sign in as the invited email and accept. Both ways are
// always offered: the page never tells whether the email has an account.
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const [invitation, user] = await Promise.all([viewInvitation(token), currentUser()]);
  if (!invitation) {
    return (
      <main className="login-wrap">
        <div className="panel">
          <h1>Invitation</h1>
          <p role="alert" className="error">
            This invitation link is not valid: it was used, revoked, has expired or was mistyped. Ask for a
            new one.
          </p>
        </div>
      </main>
    );
  }
  const tokenField = { name: "token", label: "", type: "hidden" as const, defaultValue: token };
  return (
    <main className="login-wrap">
      <div className="panel" data-testid="invitation">
        <h1>Join {invitation.tenantName}</h1>
        <p>
          You are invited as <strong>{invitation.role}</strong> of {invitation.tenantName}, as{" "}
          <strong>{invitation.email}</strong>. This link works once, until {formatDate(invitation.expiresAt)}.
        </p>
        {user && user.email.toLowerCase() === invitation.email ? (
          <SimpleForm action={acceptInvitationAction} submitLabel="Accept invitation" fields={[tokenField]} />
        ) : user ? (
          <p role="alert" className="error">
            This invitation is for {invitation.email}, but you are signed in as {user.email}. Sign out, then
            open this link again.
          </p>
        ) : (
          <>
            <h2>New to Sluice</h2>
            <SimpleForm
              action={createAccountAction}
              submitLabel="Create account"
              testId="create-account"
              fields={[
                tokenField,
                { name: "name", label: "Your name", required: true },
                {
                  name: "password",
                  label: "Choose a password",
                  type: "password",
                  required: true,
                  hint: "at least 12 characters",
                },
              ]}
            />
            <h2>Already have an account with {invitation.email}?</h2>
            <p>
              <Link href={`/login?next=/invite/${token}`}>Sign in</Link>, and you come back here to accept.
            </p>
          </>
        )}
      </div>
    </main>
  );
}
