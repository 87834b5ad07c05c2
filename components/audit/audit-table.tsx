import type { AuditRow } from "@/lib/data/queries/audit-entries";
import { changedObjects, fieldDiff } from "@/components/audit/field-diff";

// Each entry: who did what to which object (by name), and the fields it changed, folded.
export function AuditTable({ rows, showTenant }: { rows: AuditRow[]; showTenant: boolean }) {
  if (rows.length === 0)
    return (
      <p className="empty">No entries. Every change to limits, keys, tokens and members is listed here.</p>
    );
  return (
    <table data-testid="audit-table" className="audit">
      <thead>
        <tr>
          <th scope="col">When (UTC)</th>
          <th scope="col">Who</th>
          <th scope="col">What</th>
          {showTenant && <th scope="col">Tenant</th>}
          <th scope="col">Version</th>
          <th scope="col">Changes</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => {
          const changes = fieldDiff(r.before, r.after);
          return (
            <tr key={r.id}>
              <td className="nowrap">{r.at.toISOString().replace("T", " ").slice(0, 19)}</td>
              <td>{r.actor}</td>
              <td>
                <strong>{r.action}</strong> <span className="muted">{r.target}</span>
                {r.before != null && r.after != null && changes.length > 0 && (
                  <div className="muted small">changed {changedObjects(changes)}</div>
                )}
              </td>
              {showTenant && <td>{r.tenantSlug ?? "—"}</td>}
              <td>{r.configVersion ?? "—"}</td>
              <td>
                {changes.length === 0 ? (
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
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
