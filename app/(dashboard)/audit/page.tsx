import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/control/auth/session";
import { listAuditEntries } from "@/lib/control/data/queries/audit-entries";
import { parseAuditFilter } from "@/lib/control/audit/audit-filter";
import { AuditTable } from "@/components/audit/audit-table";
import { AuditFilters, AuditPager } from "@/components/audit/audit-filters";
import { orNotFound } from "@/app/(dashboard)/_lib/load";
import { auditChangesAction } from "@/app/(dashboard)/_actions/audit-actions";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[]>>;
}) {
  const user = await requireUser();
  if (!user.isOperator) notFound();
  const parsed = parseAuditFilter(await searchParams);
  const filter = parsed.success ? parsed.data : {};
  const page = await orNotFound(listAuditEntries(user, { tenantSlug: null, filter }));
  return (
    <section>
      <h1>Audit log</h1>
      <div className="panel">
        <AuditFilters base="/audit" filter={filter} showTenant />
        {!parsed.success && (
          <p role="alert" className="error">
            {parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}
          </p>
        )}
        <AuditTable rows={page.rows} showTenant zone={user.timeZone} loadChanges={auditChangesAction} />
        <AuditPager base="/audit" filter={filter} nextBefore={page.nextBefore} />
      </div>
    </section>
  );
}
