import type { Metadata } from "next";
import { requireUser } from "@/lib/control/auth/session";
import { listAuditEntries } from "@/lib/control/data/queries/audit-entries";
import { parseAuditFilter } from "@/lib/control/audit/audit-filter";
import { AuditTable } from "@/components/audit/audit-table";
import { AuditFilters, AuditPager } from "@/components/audit/audit-filters";
import { orNotFound } from "@/app/(dashboard)/_lib/load";
import { auditChangesAction } from "@/app/(dashboard)/_actions/audit-actions";

export const metadata: Metadata = { title: "Tenant audit log" };

export default async function TenantAuditPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[]>>;
}) {
  const { slug } = await params;
  const user = await requireUser();
  const parsed = parseAuditFilter(await searchParams);
  // the tenant is the page's: a tenant filter in the URL is ignored here
  const filter = parsed.success ? { ...parsed.data, tenant: undefined } : {};
  const page = await orNotFound(listAuditEntries(user, { tenantSlug: slug, filter }));
  const base = `/tenants/${slug}/audit`;
  return (
    <div className="panel">
      <h2>Audit log</h2>
      <AuditFilters base={base} filter={filter} showTenant={false} />
      <AuditTable rows={page.rows} showTenant={false} zone={user.timeZone} loadChanges={auditChangesAction} />
      <AuditPager base={base} filter={filter} nextBefore={page.nextBefore} />
    </div>
  );
}
