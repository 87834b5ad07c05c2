import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/auth/session";
import { listAuditEntries } from "@/lib/data/queries/audit-entries";
import { AuditTable } from "@/components/audit/audit-table";
import { orNotFound } from "@/app/(dashboard)/_lib/load";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage() {
  const user = await requireUser();
  if (!user.isOperator) notFound();
  const rows = await orNotFound(listAuditEntries(user, { tenantSlug: null, take: 200 }));
  return (
    <section>
      <h1>Audit log</h1>
      <div className="panel">
        <AuditTable rows={rows} showTenant />
      </div>
    </section>
  );
}
