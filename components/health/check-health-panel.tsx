import type { CheckHealth, HealthRow } from "@/lib/control/ops/check-health";
import { DEGRADED_CAUSES } from "@/lib/check/types";
import { formatTimeOfDay } from "@/lib/shared/format-date";

// The check endpoint's health: the span's headline figures, then one row per minute. The
// latency is /api/check's and the gRPC front's answer time inside the front, as
// sluice_check_duration_seconds measures it (not the network to the caller).

const number = (n: number): string => n.toLocaleString("en-US");
const millis = (n: number | null): string => (n === null ? "—" : `${n.toLocaleString("en-US")} ms`);

function causesText(r: HealthRow): string {
  const parts = DEGRADED_CAUSES.filter((c) => (r.causes[c] ?? 0) > 0).map(
    (c) => `${c} ${number(r.causes[c] ?? 0)}`,
  );
  return parts.length === 0 ? "—" : parts.join(", ");
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="health-figure">
      <span className="muted">{label}</span> <strong data-testid={testId}>{value}</strong>
    </div>
  );
}

export function CheckHealthPanel({ health, zone = "UTC" }: { health: CheckHealth; zone?: string }) {
  const t = health.total;
  if (health.minutes.length === 0)
    return <p className="muted">No front has reported in the last {health.spanMinutes} minutes.</p>;
  return (
    <>
      <div className="health-figures" aria-label="last hour">
        <Figure label="checks" value={number(t.requests)} testId="health-requests" />
        <Figure label="p50" value={millis(t.p50Ms)} testId="health-p50" />
        <Figure label="p99" value={millis(t.p99Ms)} testId="health-p99" />
        <Figure label="errors (5xx)" value={number(t.errors)} testId="health-errors" />
        <Figure label="degraded" value={number(t.degraded)} testId="health-degraded" />
        <Figure
          label="late (starved / waited)"
          value={`${number(t.lateStarved)} / ${number(t.lateWaited)}`}
          testId="health-late"
        />
        <Figure label="fronts" value={number(t.fronts)} testId="health-fronts" />
      </div>
      <div className="table-scroll">
        <table aria-label="check health per minute" className="stack-on-phone">
          <thead>
            <tr>
              <th>Minute</th>
              <th>Checks</th>
              <th>p50</th>
              <th>p99</th>
              <th>Errors</th>
              <th>Refused</th>
              <th>Denied</th>
              <th>Degraded by cause</th>
              <th>Late</th>
              <th>Fronts</th>
            </tr>
          </thead>
          <tbody>
            {health.minutes.map((r) => (
              <tr key={r.at}>
                <td className="mono">{formatTimeOfDay(r.at, false, zone)}</td>
                <td data-label="Checks">{number(r.requests)}</td>
                <td data-label="p50">{millis(r.p50Ms)}</td>
                <td data-label="p99">{millis(r.p99Ms)}</td>
                <td data-label="Errors">{number(r.errors)}</td>
                <td data-label="Refused">{number(r.refused)}</td>
                <td data-label="Denied">{number(r.rejected)}</td>
                <td data-label="Degraded by cause">
                  {r.degraded === 0 ? "0" : `${number(r.degraded)}: ${causesText(r)}`}
                </td>
                <td data-label="Late">{number(r.lateStarved + r.lateWaited)}</td>
                <td data-label="Fronts">{r.fronts}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
