import type { Metadata } from "next";
import { requireUser } from "@/lib/control/auth/session";
import { listUsers } from "@/lib/control/data/auth/accounts";
import { SimpleForm } from "@/components/forms/simple-form";
import { ConfirmButton } from "@/components/forms/confirm-button";
import { resetLinkAction, setDisabledAction } from "@/app/(dashboard)/_actions/account-actions";
import { SortableTable } from "@/components/tables/sortable-table";
import { formatDate, orNotFound } from "@/app/(dashboard)/_lib/load";

export const metadata: Metadata = { title: "Accounts" };

// Operators only (the DAL answers anyone else "not found"): disable or enable accounts and
// issue one-time reset links. Nobody here sees or sets a password.
export default async function UsersPage() {
  const user = await requireUser();
  const users = await orNotFound(listUsers(user));
  return (
    <div className="panel">
      <h2>Accounts</h2>
      <p className="muted">
        A disabled account cannot sign in, its sessions end and admin tokens it made stop working (service
        tokens keep working: revoke them on the Tokens page). A reset link lets the owner set a new password
        once, within 24 hours, and signs out all their sessions.
      </p>
      <SortableTable
        testId="users-table"
        columns={[
          { id: "account", label: "Account", rowHeader: true },
          { id: "tenants", label: "Tenants" },
          { id: "status", label: "Status" },
          { id: "since", label: "Since" },
          { id: "actions", label: "Actions", sortable: false, className: "actions" },
        ]}
        rows={users.map((u) => ({
          id: u.id,
          testId: `user-${u.email}`,
          sort: {
            account: `${u.name} ${u.email}`,
            tenants: u.tenants,
            status: u.disabled ? "disabled" : "active",
            since: u.createdAt.getTime(),
          },
          cells: [
            <>
              {u.name} <span className="muted">{u.email}</span>
              {u.isOperator ? " · operator" : ""}
            </>,
            u.tenants,
            u.disabled ? "disabled" : "active",
            formatDate(u.createdAt, user.timeZone),
            <>
              <SimpleForm
                action={resetLinkAction}
                inline
                submitLabel="Reset link"
                fields={[{ name: "userId", label: "", type: "hidden", defaultValue: u.id }]}
              />
              {u.id !== user.id && (
                <ConfirmButton
                  label={u.disabled ? "Enable" : "Disable"}
                  confirmLabel={u.disabled ? "Enable account" : "Disable account"}
                  question={`${u.disabled ? "Enable" : "Disable"} ${u.email}?`}
                  action={setDisabledAction.bind(null, {
                    userId: u.id,
                    disabled: u.disabled ? "no" : "yes",
                  })}
                />
              )}
            </>,
          ],
        }))}
      />
    </div>
  );
}
