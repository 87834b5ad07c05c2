import type { AuditRow } from "@/lib/control/data/queries/audit-entries";
import { changedObjects, fieldDiff } from "@/components/audit/field-diff";
import { SortableTable, type SortColumn } from "@/components/tables/sortable-table";
import { formatDateSeconds } from "@/lib/shared/format-date";

// Each entry: who did what to which object (by name), and the fields it changed, folded.
// Headers sort the entries of the page shown (paging stays newest first).
export function AuditTable({ rows, showTenant }: { rows: AuditRow[]; showTenant: boolean }) {
  if (rows.length === 0)
    return (
      <p className="empty">No entries. Every change to limits, keys, tokens and members is listed here.</p>
    );
  const columns: SortColumn[] = [
    { id: "at", label: "When (UTC)", className: "nowrap" },
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
          formatDateSeconds(r.at),
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
            <details>
              <summary>
                {changes.length} field{changes.length === 1 ? "" : "s"}
              </summary>
              <table className="field-diff" data-testid="field-diff">
                <tbody>
                  {changes.map((c) => (
                    <tr key={c.path}>
                      <th scope="row" className="mono">
                        {c.path}
                      </th>
                      <td className="diff-del mono">{c.before ?? ""}</td>
                      <td className="diff-add mono">{c.after ?? ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
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
