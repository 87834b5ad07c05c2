import type { Metadata } from "next";
import { requireUser } from "@/lib/control/auth/session";
import { SimpleForm } from "@/components/forms/simple-form";
import { changePasswordAction, setTimeZoneAction } from "@/app/(dashboard)/_actions/account-actions";
import { BrowserTimeZone } from "@/components/forms/browser-time-zone";
import { timeZoneNames } from "@/lib/shared/format-date";

export const metadata: Metadata = { title: "Your account" };

export default async function AccountPage() {
  const user = await requireUser();
  const zone = user.timeZone ?? "UTC";
  return (
    <>
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
      <div className="panel">
        <h2>Time zone</h2>
        <p className="muted" data-testid="current-time-zone">
          Dates and chart axes in the console are shown in {zone}, and each names its zone. UTC until you
          choose another; the admin API and exports stay in UTC.
        </p>
        <BrowserTimeZone current={zone} />
        <SimpleForm
          action={setTimeZoneAction}
          submitLabel="Save time zone"
          testId="time-zone"
          idPrefix="tz"
          fields={[
            {
              name: "timeZone",
              label: "Time zone",
              type: "select",
              options: timeZoneNames(),
              defaultValue: zone,
            },
          ]}
        />
      </div>
    </>
  );
}
