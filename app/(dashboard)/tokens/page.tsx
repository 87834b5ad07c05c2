import type { Metadata } from "next";
import { requireUser } from "@/lib/control/auth/session";
import { listTokens } from "@/lib/control/data/queries/list-tokens";
import { tenantPage } from "@/lib/control/data/queries/tenant-page";
import { parseTenantListQuery } from "@/lib/control/lists/tenant-list-query";
import { SimpleForm } from "@/components/forms/simple-form";
import { TokenTable } from "@/components/tenants/token-table";
import {
  createAdminTokenAction,
  createServiceTokenAction,
  revokeTokenAction,
} from "@/app/(dashboard)/_actions/token-actions";
import { orNotFound } from "@/app/(dashboard)/_lib/load";
import { notFound } from "next/navigation";

export const metadata: Metadata = { title: "Tokens" };

/** the tenants listed as choices; more are written as slugs */
const FEW = 50;

export default async function TokensPage() {
  const user = await requireUser();
  if (!user.isOperator) notFound();
  const tokens = await orNotFound(listTokens(user, null));
  // up to a page of tenants: ticked in a list; past that (10,000 tenants) written as slugs
  const tenants = await tenantPage(user, parseTenantListQuery({ size: String(FEW) }).query);
  const slugs = tenants.total <= FEW ? tenants.rows.map((t) => t.slug) : null;
  return (
    <section>
      <h1>Service and admin tokens</h1>
      <div className="panel">
        <TokenTable
          zone={user.timeZone}
          tokens={tokens}
          revoke={revokeTokenAction}
          empty="No tokens yet. Services need a service token to call /api/check."
        />
      </div>
      <div className="panel grid-2">
        <div>
          <h2>New service token</h2>
          <SimpleForm
            action={createServiceTokenAction}
            submitLabel="Create service token"
            testId="create-service-token"
            fields={[
              { name: "name", label: "Name", placeholder: "edge-gateway" },
              slugs
                ? {
                    name: "tenants",
                    label: "Limit to tenants (none ticked: all tenants)",
                    type: "checkboxes",
                    options: slugs,
                  }
                : {
                    name: "tenants",
                    label: "Limit to tenants (slugs, separated by commas; empty: all tenants)",
                    placeholder: "acme, globex",
                  },
            ]}
          />
        </div>
        <div>
          <h2>New admin API token</h2>
          <SimpleForm
            action={createAdminTokenAction}
            submitLabel="Create admin token"
            fields={[
              { name: "name", label: "Name", placeholder: "ci" },
              slugs
                ? {
                    name: "tenant",
                    label: "Tenant (empty: operator token)",
                    type: "select",
                    options: ["", ...slugs],
                  }
                : { name: "tenant", label: "Tenant slug (empty: operator token)", placeholder: "acme" },
              {
                name: "role",
                label: "Role within that tenant",
                type: "select",
                options: ["viewer", "editor", "admin", "owner"],
              },
            ]}
          />
        </div>
      </div>
    </section>
  );
}
