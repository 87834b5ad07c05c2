import Link from "next/link";
import type { BreakdownRow } from "@/lib/usage/types";
import { formatCount, formatPercent } from "@/components/charts/format";

// The numbers behind a breakdown chart, each row a drill-down link when it has one.

export function BreakdownTable({
  rows,
  label,
  hrefFor,
}: {
  rows: BreakdownRow[];
  label: string;
  hrefFor: (row: BreakdownRow) => string | null;
}) {
  return (
    <table className="usage-table" style={{ width: "100%", fontSize: 13 }}>
      <thead>
        <tr>
          <th align="left">{label}</th>
          <th align="right">Allowed</th>
          <th align="right">Rejected</th>
          <th align="right">Rate</th>
          <th align="right">Shadow</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const href = hrefFor(row);
          const decided = row.allowed + row.rejected + row.degraded;
          return (
            <tr key={`${row.id ?? "other"}`}>
              <td>{href ? <Link href={href}>{row.name}</Link> : row.name}</td>
              <td align="right">{formatCount(row.allowed)}</td>
              <td align="right">{formatCount(row.rejected)}</td>
              <td align="right">{decided ? formatPercent(row.rejected / decided) : "–"}</td>
              <td align="right">{formatCount(row.shadowRejected)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
