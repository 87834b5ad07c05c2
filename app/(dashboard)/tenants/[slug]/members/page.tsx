import type { Metadata } from "next";
import { requireUser } from "@/lib/control/auth/session";
import { tenantDetail } from "@/lib/control/data/queries/tenant-detail";
import { listMembers } from "@/lib/control/data/members";
import { listInvitations, type PendingInvitation } from "@/lib/control/data/invitations";
import { SimpleForm } from "@/components/forms/simple-form";
import { ConfirmButton } from "@/components/forms/confirm-button";
import {
  changeRoleAction,
  inviteMemberAction,
  removeMemberAction,
  revokeInvitationAction,
} from "@/app/(dashboard)/_actions/member-actions";
import { SortableTable } from "@/components/tables/sortable-table";
import { formatDate, orNotFound } from "@/app/(dashboard)/_lib/load";

export const metadata: Metadata = { title: "Members" };

const ROLES = ["viewer", "editor", "admin", "owner"] as const;

export default async function MembersPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requireUser();
  const tenant = await orNotFound(tenantDetail(user, slug));
  const members = await orNotFound(listMembers(user, slug));
  const grantable = tenant.can.own ? ROLES : ROLES.filter((r) => r !== "owner");
  const invitations: PendingInvitation[] = tenant.can.admin ? await listInvitations(user, slug) : [];
  return (
    <>
      <div className="panel">
        <h2>Members and roles</h2>
        <p className="muted">
          Viewers read; editors change limits, keys and routes; admins also manage tokens and members; owners
          also the tenant itself.
        </p>
        {members.length === 0 ? (
          <p className="empty">No members yet{tenant.can.admin ? ": invite the first below." : "."}</p>
        ) : (
          <SortableTable
            testId="members-table"
            columns={[
              { id: "member", label: "Member", rowHeader: true },
              { id: "role", label: "Role" },
              { id: "since", label: "Since" },
              ...(tenant.can.admin
                ? [{ id: "actions", label: "Actions", sortable: false, className: "actions" }]
                : []),
            ]}
            rows={members.map((m) => ({
              id: m.userId,
              sort: { member: `${m.name} ${m.email}`, role: ROLES.indexOf(m.role), since: m.since.getTime() },
              cells: [
                <>
                  {m.name} <span className="muted">{m.email}</span>
                </>,
                m.role,
                formatDate(m.since, user.timeZone),
                tenant.can.admin ? (
                  <>
                    <SimpleForm
                      action={changeRoleAction}
                      inline
                      submitLabel="Change role"
                      fields={[
                        { name: "tenant", label: "", type: "hidden", defaultValue: slug },
                        { name: "userId", label: "", type: "hidden", defaultValue: m.userId },
                        {
                          name: "role",
                          label: "Role",
                          type: "select",
                          options: grantable,
                          defaultValue: m.role,
                        },
                      ]}
                    />
                    <ConfirmButton
                      label="Remove"
                      confirmLabel="Remove member"
                      question={`Remove ${m.email} from ${tenant.slug}?`}
                      action={removeMemberAction.bind(null, { tenant: slug, userId: m.userId })}
                    />
                  </>
                ) : null,
              ],
            }))}
          />
        )}
      </div>
      {tenant.can.admin && (
        <div className="panel">
          <h2>Invite a member</h2>
          <p className="muted">
            Sluice sends no mail: you get a one-time link to give the person privately. They open it to set
            their own password, or, if they already have an account with that email, to sign in and accept.
          </p>
          <SimpleForm
            action={inviteMemberAction}
            inline
            submitLabel="Invite"
            testId="invite-member"
            fields={[
              { name: "tenant", label: "", type: "hidden", defaultValue: slug },
              { name: "email", label: "Email", type: "email", placeholder: "someone@example.com" },
              { name: "role", label: "Role", type: "select", options: grantable },
            ]}
          />
          {invitations.length > 0 && (
            <SortableTable
              testId="invitations-table"
              columns={[
                { id: "email", label: "Invited", rowHeader: true },
                { id: "role", label: "Role" },
                { id: "expires", label: "Expires" },
                { id: "actions", label: "Actions", sortable: false, className: "actions" },
              ]}
              rows={invitations.map((i) => ({
                id: i.id,
                sort: { email: i.email, role: ROLES.indexOf(i.role), expires: i.expiresAt.getTime() },
                cells: [
                  i.email,
                  i.role,
                  formatDate(i.expiresAt, user.timeZone),
                  <ConfirmButton
                    key="revoke"
                    label="Revoke"
                    confirmLabel="Revoke invitation"
                    question={`Revoke the invitation for ${i.email}?`}
                    action={revokeInvitationAction.bind(null, { tenant: slug, id: i.id })}
                  />,
                ],
              }))}
            />
          )}
        </div>
      )}
    </>
  );
}
