import type { LogEntry } from "@/lib/control/ops/decision-log";
import { outcomeLabel } from "@/components/ops/decision-log-filters";
import { formatDateSeconds } from "@/lib/shared/format-date";

// The decision log's rows, newest first: when (in the reader's time zone, named), who, what
// was decided and which limit denied.

export function DecisionLogTable({ rows, zone = "UTC" }: { rows: readonly LogEntry[]; zone?: string }) {
  if (rows.length === 0) return <p className="muted">No decisions in the sample match these filters.</p>;
  return (
    <div className="table-scroll">
      <table aria-label="decision log" className="stack-on-phone">
        <thead>
          <tr>
            <th>When</th>
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
              <td className="mono">{formatDateSeconds(d.at, true, zone)}</td>
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
