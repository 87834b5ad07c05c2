import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/control/auth/session";
import { tenantDetail } from "@/lib/control/data/queries/tenant-detail";
import { listTokens } from "@/lib/control/data/queries/list-tokens";
import { SimpleForm } from "@/components/forms/simple-form";
import { TokenTable } from "@/components/tenants/token-table";
import {
  createAdminTokenAction,
  createServiceTokenAction,
  revokeTokenAction,
} from "@/app/(dashboard)/_actions/token-actions";
import { orNotFound } from "@/app/(dashboard)/_lib/load";

export const metadata: Metadata = { title: "Tokens" };

const ROLES = ["viewer", "editor", "admin", "owner"] as const;

export default async function TenantTokensPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requireUser();
  const tenant = await orNotFound(tenantDetail(user, slug));
  if (!tenant.can.admin) notFound();
  const tokens = await orNotFound(listTokens(user, slug));
  const grantable = tenant.can.own ? ROLES : ROLES.filter((r) => r !== "owner");
  return (
    <>
      <div className="panel">
        <h2>Tokens for {tenant.name}</h2>
        <TokenTable
          zone={user.timeZone}
          tokens={tokens}
          revoke={revokeTokenAction}
          empty="No tokens for this tenant yet. Services calling /api/check need a service token."
        />
      </div>
      <div className="panel grid-2">
        <div>
          <h3>New service token</h3>
          <p className="muted">Lets a service call /api/check for this tenant only.</p>
          <SimpleForm
            action={createServiceTokenAction}
            submitLabel="Create service token"
            fields={[
              { name: "name", label: "Name", placeholder: "checkout-service" },
              { name: "tenants", label: "Tenants", type: "checkboxes", options: [slug] },
            ]}
          />
        </div>
        <div>
          <h3>New admin API token</h3>
          <p className="muted">Automation acting on this tenant with a role, through /api/admin.</p>
          <SimpleForm
            action={createAdminTokenAction}
            submitLabel="Create admin token"
            fields={[
              { name: "name", label: "Name", placeholder: "terraform" },
              { name: "role", label: "Role", type: "select", options: grantable },
              { name: "tenant", label: "", type: "hidden", defaultValue: slug },
            ]}
          />
        </div>
      </div>
    </>
  );
}
