import type { ReactNode } from "react";
import { requireUser } from "@/lib/control/auth/session";
import { tenantDetail } from "@/lib/control/data/queries/tenant-detail";
import { StatusBadge } from "@/components/tenants/status-badge";
import { TenantTabs } from "@/components/tenants/tenant-tabs";
import { RecentDegradedBanner } from "@/components/usage/recent-degraded-banner";
import { orNotFound } from "@/app/(dashboard)/_lib/load";
import { serviceLimitText } from "@/components/plans/service-limit-text";

// The tenant is loaded through the DAL here and again by each page: a tenant that is not
// the user's is a 404 for the whole subtree.
export default async function TenantLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ slug: string }>;
}) {
  const { slug } = await params;
  const user = await requireUser();
  const tenant = await orNotFound(tenantDetail(user, slug));
  return (
    <section>
      <div className="tenant-head">
        <h1>
          {tenant.name} <span className="muted mono">{tenant.slug}</span>
        </h1>
        <span>
          plan <strong>{tenant.plan}</strong>
        </span>
        <span className="muted" data-testid="tenant-service-limit">
          Service limit: {serviceLimitText(tenant.scope.plans.find((p) => p.name === tenant.plan)?.service)}
        </span>
        <StatusBadge status={tenant.status} />
        <span className="muted">you: {tenant.role}</span>
      </div>
      <RecentDegradedBanner principal={user} tenants={[tenant.slug]} />
      <TenantTabs slug={tenant.slug} can={tenant.can} />
      {children}
    </section>
  );
}
