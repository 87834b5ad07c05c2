import Link from "next/link";
import { auditHref, type AuditFilter } from "@/lib/control/audit/audit-filter";

// The audit log's filters (a plain GET form: every filtered view has its URL) and paging.

const KINDS = [
  "tenant",
  "plan",
  "route",
  "key",
  "service-token",
  "admin-token",
  "member",
  "invitation",
  "counter",
  "user",
];

export function AuditFilters({
  base,
  filter,
  showTenant,
}: {
  base: string;
  filter: AuditFilter;
  showTenant: boolean;
}) {
  return (
    <form method="get" action={base} className="audit-filters" data-testid="audit-filters">
      {showTenant && (
        <label>
          Tenant <input name="tenant" defaultValue={filter.tenant ?? ""} placeholder="slug" size={12} />
        </label>
      )}
      <label>
        Actor <input name="actor" defaultValue={filter.actor ?? ""} placeholder="email or token" size={16} />
      </label>
      <label>
        Kind{" "}
        <select name="kind" defaultValue={filter.kind ?? ""}>
          <option value="">any</option>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      <label>
        From <input type="date" name="from" defaultValue={filter.from ?? ""} />
      </label>
      <label>
        To <input type="date" name="to" defaultValue={filter.to ?? ""} />
      </label>
      <button type="submit">Filter</button>
      <Link href={base}>Clear</Link>
    </form>
  );
}

export function AuditPager({
  base,
  filter,
  nextBefore,
}: {
  base: string;
  filter: AuditFilter;
  nextBefore: string | null;
}) {
  const { before, ...rest } = filter;
  return (
    <nav className="pager" aria-label="Audit pages">
      {before && <Link href={auditHref(base, rest, null)}>← Newest</Link>}
      {nextBefore && <Link href={auditHref(base, rest, nextBefore)}>Older →</Link>}
    </nav>
  );
}
