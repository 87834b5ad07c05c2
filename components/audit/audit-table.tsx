import { formatDate } from "@/lib/shared/format-date";
import type { AuditRow } from "@/lib/control/data/queries/audit-entries";
import { changedObjects, fieldDiff } from "@/components/audit/field-diff";
import { SortableTable, type SortColumn } from "@/components/tables/sortable-table";
import { AuditChanges, type LoadChanges } from "@/components/audit/audit-changes";

// Each entry: who did what to which object (by name), and the fields it changed, folded:
// the page carries their count, the fields are read when unfolded (audit-changes.tsx).
// Headers sort the entries of the page shown (paging stays newest first).
export function AuditTable({
  rows,
  showTenant,
  zone,
  loadChanges,
}: {
  rows: AuditRow[];
  showTenant: boolean;
  /** the reader's time zone (account settings) */
  zone?: string;
  /** reads one entry's changed fields (auditChangesAction) */
  loadChanges: LoadChanges;
}) {
  if (rows.length === 0)
    return (
      <p className="empty">No entries. Every change to limits, keys, tokens and members is listed here.</p>
    );
  const columns: SortColumn[] = [
    { id: "at", label: "When", className: "nowrap" },
    { id: "actor", label: "Who" },
    { id: "action", label: "What" },
    ...(showTenant ? [{ id: "tenant", label: "Tenant" }] : []),
    { id: "version", label: "Version" },
    { id: "changes", label: "Changes" },
  ];
  return (
    <SortableTable
      testId="audit-table"
      className="audit"
      columns={columns}
      rows={rows.map((r) => {
        const changes = fieldDiff(r.before, r.after);
        const cells = [
          formatDate(r.at, zone, true),
          r.actor,
          <>
            <strong>{r.action}</strong> <span className="muted">{r.target}</span>
            {r.before != null && r.after != null && changes.length > 0 && (
              <div className="muted small">changed {changedObjects(changes)}</div>
            )}
          </>,
          ...(showTenant ? [r.tenantSlug ?? "—"] : []),
          r.configVersion ?? "—",
          changes.length === 0 ? (
            <span className="muted">—</span>
          ) : (
            <AuditChanges id={r.id} count={changes.length} load={loadChanges} />
          ),
        ];
        return {
          id: r.id,
          sort: {
            at: r.at.getTime(),
            actor: r.actor,
            action: `${r.action} ${r.target}`,
            tenant: r.tenantSlug ?? "",
            version: r.configVersion ?? 0,
            changes: changes.length,
          },
          cells,
        };
      })}
    />
  );
}
