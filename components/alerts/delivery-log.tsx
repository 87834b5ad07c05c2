import "@/components/alerts/alerts.css";
import type { DeliveryView } from "@/lib/control/data/alerts/deliveries";
import { AlertTable } from "@/components/alerts/alert-table";
import { formatDate } from "@/lib/shared/format-date";

// The delivery log: each webhook message, newest first.

const COLUMNS = [
  "Queued",
  "Event",
  "Rule",
  "Endpoint",
  "Status",
  "Attempts",
  "Response",
  "Last error / next try",
];

const BADGE: Record<string, string> = {
  delivered: "badge-ok",
  failed: "badge-danger",
  pending: "badge-warn",
};

export function DeliveryLog({ deliveries, zone }: { deliveries: DeliveryView[]; zone?: string }) {
  if (deliveries.length === 0)
    return <p className="empty">Nothing sent yet. Messages appear here when a rule fires or resolves.</p>;
  return (
    <AlertTable testId="alert-deliveries" columns={COLUMNS} actions={false}>
      {deliveries.map((d) => (
        <tr key={d.id} data-testid={`delivery-${d.rule}-${d.event}`}>
          <td>{formatDate(d.createdAt, zone)}</td>
          <td>{d.event}</td>
          <td className="mono">{d.rule}</td>
          <td className="mono">{d.endpoint}</td>
          <td>
            <span className={`badge ${BADGE[d.status] ?? ""}`}>{d.status}</span>
          </td>
          <td>{d.attempts}</td>
          <td className="mono">{d.responseCode ?? "—"}</td>
          <td className="muted">
            {d.lastError ?? ""}
            {d.status === "pending" && d.attempts > 0 ? ` · next ${formatDate(d.nextAttemptAt, zone)}` : ""}
          </td>
        </tr>
      ))}
    </AlertTable>
  );
}
