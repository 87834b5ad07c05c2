import type { AuditRow } from "@/lib/data/queries/audit-entries";
import { stringify } from "yaml";

// Each entry with its before/after, folded; YAML reads better than JSON for config parts.
export function AuditTable({ rows, showTenant }: { rows: AuditRow[]; showTenant: boolean }) {
  if (rows.length === 0)
    return (
      <p className="empty">
        Nothing has changed yet. Every change to limits, keys, tokens and members will be listed here.
      </p>
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
          <th scope="col">Before / after</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id}>
            <td className="nowrap">{r.at.toISOString().replace("T", " ").slice(0, 19)}</td>
            <td>{r.actor}</td>
            <td>
              <strong>{r.action}</strong> <span className="muted">{r.target}</span>
            </td>
            {showTenant && <td>{r.tenantSlug ?? "—"}</td>}
            <td>{r.configVersion ?? "—"}</td>
            <td>
              <details>
                <summary>show</summary>
                <div className="before-after">
                  <div>
                    <h4>Before</h4>
                    <pre>{r.before == null ? "(none)" : stringify(r.before)}</pre>
                  </div>
                  <div>
                    <h4>After</h4>
                    <pre>{r.after == null ? "(none)" : stringify(r.after)}</pre>
                  </div>
                </div>
              </details>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
