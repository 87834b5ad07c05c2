import type { Metadata } from "next";
import { requireUser } from "@/lib/control/auth/session";
import { SimpleForm } from "@/components/forms/simple-form";
import { changePasswordAction } from "@/app/(dashboard)/_actions/account-actions";

export const metadata: Metadata = { title: "Your account" };

export default async function AccountPage() {
  const user = await requireUser();
  return (
    <div className="panel">
      <h2>Your account</h2>
      <p className="muted">
        Signed in as {user.email}. Changing your password signs out your other sessions; this one stays.
      </p>
      <SimpleForm
        action={changePasswordAction}
        submitLabel="Change password"
        testId="change-password"
        fields={[
          { name: "current", label: "Current password", type: "password", required: true },
          {
            name: "password",
            label: "New password",
            type: "password",
            required: true,
            hint: "at least 12 characters",
          },
        ]}
      />
    </div>
  );
}
