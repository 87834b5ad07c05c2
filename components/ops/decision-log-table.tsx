import type { LogEntry } from "@/lib/control/ops/decision-log";
import { outcomeLabel } from "@/components/ops/decision-log-filters";
import { formatDateSeconds } from "@/lib/shared/format-date";

// The decision log's rows, newest first: when, who, what was decided and which limit denied.

export function DecisionLogTable({ rows }: { rows: readonly LogEntry[] }) {
  if (rows.length === 0) return <p className="muted">No decisions in the sample match these filters.</p>;
  return (
    <div className="table-scroll">
      <table aria-label="decision log" className="stack-on-phone">
        <thead>
          <tr>
            <th>When (UTC)</th>
            <th>Key</th>
            <th>Route</th>
            <th>Subject</th>
            <th>Decision</th>
            <th>Reason</th>
            <th>Denied by</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((d, i) => (
            <tr key={i}>
              <td className="mono">{formatDateSeconds(d.at, true)}</td>
              <td data-label="Key">{d.key ?? "—"}</td>
              <td data-label="Route" className="mono">
                {d.route ?? "—"}
              </td>
              <td data-label="Subject" className="mono">
                {d.subject ?? "—"}
              </td>
              <td data-label="Decision">{outcomeLabel(d.outcome)}</td>
              <td data-label="Reason">{d.reason}</td>
              <td data-label="Denied by">{d.deniedBy ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
