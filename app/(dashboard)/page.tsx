import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/control/auth/session";
import { listPlanNames, listTenants } from "@/lib/control/data/queries/list-tenants";
import { SimpleForm } from "@/components/forms/simple-form";
import { StatusBadge } from "@/components/tenants/status-badge";
import { TenantTrafficSummary } from "@/components/usage/tenant-traffic-summary";
import { RecentDegradedBanner } from "@/components/usage/recent-degraded-banner";
import { MostLimitedPanel } from "@/components/usage/most-limited-panel";
import { isRangeId } from "@/lib/usage/ranges";
import { SortableTable } from "@/components/tables/sortable-table";
import { createTenantAction } from "@/app/(dashboard)/_actions/tenant-actions";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage({ searchParams }: { searchParams: Promise<{ range?: string }> }) {
  const user = await requireUser();
  const { range } = await searchParams;
  const tenants = await listTenants(user);
  const plans = user.isOperator ? await listPlanNames() : [];
  return (
    <section>
      <h1>Overview</h1>
      <RecentDegradedBanner principal={user} tenants={tenants.map((t) => t.slug)} />
      <div className="panel">
        <h2>Tenants</h2>
        {tenants.length === 0 ? (
          <p className="empty">
            {user.isOperator
              ? "No tenants yet. Create the first one below, then give it keys and limits."
              : "You are not a member of any tenant yet. Ask a tenant admin or an operator to add you."}
          </p>
        ) : (
          <SortableTable
            testId="tenants-table"
            columns={[
              { id: "tenant", label: "Tenant" },
              { id: "plan", label: "Plan" },
              { id: "status", label: "Status" },
              { id: "traffic", label: "Traffic", sortable: false },
              { id: "keys", label: "Active keys" },
              { id: "role", label: "Your role" },
            ]}
            rows={tenants.map((t) => ({
              id: t.id,
              sort: {
                tenant: `${t.name} ${t.slug}`,
                plan: t.plan,
                status: t.status,
                keys: t.keys,
                role: t.role,
              },
              cells: [
                <>
                  <Link href={`/tenants/${t.slug}`}>{t.name}</Link>{" "}
                  <span className="muted mono">{t.slug}</span>
                </>,
                t.plan,
                <StatusBadge key="status" status={t.status} />,
                <TenantTrafficSummary key="traffic" principal={user} tenant={t.slug} />,
                t.keys,
                t.role,
              ],
            }))}
          />
        )}
      </div>
      {tenants.length > 0 && <MostLimitedPanel principal={user} range={isRangeId(range) ? range : "15m"} />}
      {user.isOperator && (
        <div className="panel">
          <h2>Create a tenant</h2>
          <SimpleForm
            action={createTenantAction}
            testId="create-tenant"
            submitLabel="Create tenant"
            inline
            fields={[
              {
                name: "slug",
                label: "Slug",
                placeholder: "acme",
                hint: "a-z, 0-9 and -; used in URLs and checks",
              },
              { name: "name", label: "Display name", placeholder: "Acme Corp" },
              { name: "plan", label: "Plan", type: "select", options: plans },
            ]}
          />
        </div>
      )}
    </section>
  );
}
