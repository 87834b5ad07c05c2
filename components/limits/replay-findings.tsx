import type { ReplayResult } from "@/lib/control/replay/types";
import { formatPercent } from "@/components/charts/format";

// The replay's answer in words: totals, the most affected keys, subjects and routes, and
// what the replay could not know.

const KIND: Record<string, string> = { key: "Key", subject: "Subject", route: "Route" };
const n = (v: number) => v.toLocaleString("en-US");
const share = (part: number, whole: number) =>
  part > 0 && whole > 0 ? ` (${formatPercent(part / whole)})` : "";

export function ReplayFindings({ result, hasCurrent }: { result: ReplayResult; hasCurrent: boolean }) {
  const { totals, bounds } = result;
  const rows = result.top.filter((r) => r.checks > 0);
  return (
    <>
      <p data-testid="replay-summary">
        {n(totals.checks)} recorded checks. {hasCurrent ? "The current limit" : "Without this limit, none"}
        {hasCurrent &&
          ` would have rejected ${n(totals.currentRejected)}${share(totals.currentRejected, totals.checks)}`}
        ; the proposed one <strong>{n(totals.proposedRejected)}</strong>
        {share(totals.proposedRejected, totals.checks)}.
      </p>
      {bounds.truncated && (
        <p className="error" data-testid="replay-truncated">
          A cap cut this replay short; the counts cover part of the traffic (see below).
        </p>
      )}
      {rows.length > 0 && (
        <div style={{ overflowX: "auto" }}>
          <table data-testid="replay-top">
            <thead>
              <tr>
                <th>Most affected</th>
                <th>Checks</th>
                <th>Current rejects</th>
                <th>Proposed rejects</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.kind}:${r.name}`}>
                  <td>
                    <span className="muted">{KIND[r.kind]}</span> <code>{r.name || "(none)"}</code>
                  </td>
                  <td>{n(r.checks)}</td>
                  <td>{n(r.currentRejected)}</td>
                  <td>{n(r.proposedRejected)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <details data-testid="replay-caveats">
        <summary>What this replay cannot know</summary>
        <ul>
          {result.caveats.map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
      </details>
    </>
  );
}
