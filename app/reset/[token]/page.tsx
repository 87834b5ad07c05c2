import type { Metadata } from "next";
import { viewResetLink } from "@/lib/control/data/auth/accounts";
import { SimpleForm } from "@/components/forms/simple-form";
import { resetPasswordAction } from "@/app/reset/actions";

export const metadata: Metadata = { title: "Set a new password", referrer: "no-referrer" };
export const dynamic = "force-dynamic";

// A one-time link an operator issued; the account's owner sets the password here.
export default async function ResetPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const link = await viewResetLink(token);
  return (
    <main className="login-wrap">
      <div className="panel">
        <h1>Set a new password</h1>
        {link ? (
          <>
            <p>
              For <strong>{link.email}</strong>. Every session of this account will be signed out.
            </p>
            <SimpleForm
              action={resetPasswordAction}
              submitLabel="Set password"
              testId="reset-password"
              fields={[
                { name: "token", label: "", type: "hidden", defaultValue: token },
                {
                  name: "password",
                  label: "New password",
                  type: "password",
                  required: true,
                  hint: "at least 12 characters",
                },
              ]}
            />
          </>
        ) : (
          <p role="alert" className="error">
            This reset link is not valid: it was used, replaced, has expired or was mistyped. Ask an operator
            for a new one.
          </p>
        )}
      </div>
    </main>
  );
}
