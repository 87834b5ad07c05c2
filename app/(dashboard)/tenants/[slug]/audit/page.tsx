import type { Metadata } from "next";
import { requireUser } from "@/lib/auth/session";
import { listAuditEntries } from "@/lib/data/queries/audit-entries";
import { AuditTable } from "@/components/audit/audit-table";
import { orNotFound } from "@/app/(dashboard)/_lib/load";

export const metadata: Metadata = { title: "Tenant audit log" };

export default async function TenantAuditPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const user = await requireUser();
  const rows = await orNotFound(listAuditEntries(user, { tenantSlug: slug, take: 100 }));
  return (
    <div className="panel">
      <h2>Audit log</h2>
      <AuditTable rows={rows} showTenant={false} />
    </div>
  );
}
