import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/session";
import { listPlanNames, listTenants } from "@/lib/data/queries/list-tenants";
import { SimpleForm } from "@/components/forms/simple-form";
import { StatusBadge } from "@/components/tenants/status-badge";
import { TenantTrafficSummary } from "@/components/usage/tenant-traffic-summary";
import { RecentDegradedBanner } from "@/components/usage/recent-degraded-banner";
import { MostLimitedPanel } from "@/components/usage/most-limited-panel";
import { isRangeId } from "@/lib/usage/ranges";
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
          <table data-testid="tenants-table">
            <thead>
              <tr>
                <th scope="col">Tenant</th>
                <th scope="col">Plan</th>
                <th scope="col">Status</th>
                <th scope="col">Traffic</th>
                <th scope="col">Active keys</th>
                <th scope="col">Your role</th>
              </tr>
            </thead>
            <tbody>
              {tenants.map((t) => (
                <tr key={t.id}>
                  <td>
                    <Link href={`/tenants/${t.slug}`}>{t.name}</Link>{" "}
                    <span className="muted mono">{t.slug}</span>
                  </td>
                  <td>{t.plan}</td>
                  <td>
                    <StatusBadge status={t.status} />
                  </td>
                  <td>
                    <TenantTrafficSummary principal={user} tenant={t.slug} />
                  </td>
                  <td>{t.keys}</td>
                  <td>{t.role}</td>
                </tr>
              ))}
            </tbody>
          </table>
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
