"use client";

import type { Offender } from "@/lib/usage/types";
import { formatCount } from "@/components/charts/format";
import { useSort } from "@/components/tables/use-sort";

// Who is being throttled: the most rejected keys and subjects of the last hour at most.

export function OffendersTable({ offenders }: { offenders: Offender[] }) {
  const { sorted, header } = useSort(offenders, {
    name: (o) => o.name,
    kind: (o) => o.kind,
    rejected: (o) => o.rejected,
  });
  if (offenders.length === 0) return <p className="muted">Nobody was rejected in this range.</p>;
  return (
    <table data-testid="offenders" style={{ width: "100%", fontSize: 13 }}>
      <thead>
        <tr>
          {header("name", "Who")}
          {header("kind", "Kind")}
          {header("rejected", "Rejected", "right")}
        </tr>
      </thead>
      <tbody>
        {sorted.map((o) => (
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
