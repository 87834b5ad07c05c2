import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/session";
import { listUsers } from "@/lib/data/auth/accounts";
import { SimpleForm } from "@/components/forms/simple-form";
import { ConfirmButton } from "@/components/forms/confirm-button";
import { resetLinkAction, setDisabledAction } from "@/app/(dashboard)/_actions/account-actions";
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
      <table data-testid="users-table">
        <thead>
          <tr>
            <th scope="col">Account</th>
            <th scope="col">Tenants</th>
            <th scope="col">Status</th>
            <th scope="col">Since</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.id} data-testid={`user-${u.email}`}>
              <th scope="row">
                {u.name} <span className="muted">{u.email}</span>
                {u.isOperator ? " · operator" : ""}
              </th>
              <td>{u.tenants}</td>
              <td>{u.disabled ? "disabled" : "active"}</td>
              <td>{formatDate(u.createdAt)}</td>
              <td className="actions">
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
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
