import "@/components/alerts/alerts.css";
import type { DeliveryView } from "@/lib/data/alerts/deliveries";
import { formatDate } from "@/app/(dashboard)/_lib/load";

// The delivery log: each webhook message, newest first.

const BADGE: Record<string, string> = {
  delivered: "badge-ok",
  failed: "badge-danger",
  pending: "badge-warn",
};

export function DeliveryLog({ deliveries }: { deliveries: DeliveryView[] }) {
  if (deliveries.length === 0)
    return <p className="empty">Nothing sent yet. Messages appear here when a rule fires or resolves.</p>;
  return (
    <div className="table-scroll">
      <table data-testid="alert-deliveries">
        <thead>
          <tr>
            <th scope="col">Queued</th>
            <th scope="col">Event</th>
            <th scope="col">Rule</th>
            <th scope="col">Endpoint</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Response</th>
            <th scope="col">Last error / next try</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.id} data-testid={`delivery-${d.rule}-${d.event}`}>
              <td>{formatDate(d.createdAt)}</td>
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
                {d.status === "pending" && d.attempts > 0 ? ` · next ${formatDate(d.nextAttemptAt)}` : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
