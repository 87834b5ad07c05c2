import type { Offender } from "@/lib/usage/types";
import { formatCount } from "@/components/charts/format";

// Who is being throttled: the most rejected keys and subjects of the last hour at most.

export function OffendersTable({ offenders }: { offenders: Offender[] }) {
  if (offenders.length === 0) return <p className="muted">Nobody was rejected in this range.</p>;
  return (
    <table data-testid="offenders" style={{ width: "100%", fontSize: 13 }}>
      <thead>
        <tr>
          <th align="left">Who</th>
          <th align="left">Kind</th>
          <th align="right">Rejected</th>
        </tr>
      </thead>
      <tbody>
        {offenders.map((o) => (
          <tr key={`${o.kind}:${o.name}`}>
            <td>
              <code>{o.name}</code>
            </td>
            <td>{o.kind}</td>
            <td align="right">{formatCount(o.rejected)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
