"use client";

import Link from "next/link";
import type { BreakdownRow } from "@/lib/usage/types";
import { formatCount, formatPercent } from "@/components/charts/format";
import { useSort } from "@/components/tables/use-sort";

// The numbers behind a breakdown chart, each row a drill-down link when it has one;
// sortable by any column.

const rate = (row: BreakdownRow): number => {
  const decided = row.allowed + row.rejected + row.degraded;
  return decided ? row.rejected / decided : -1;
};

export function BreakdownTable({
  rows,
  label,
  hrefFor,
}: {
  rows: BreakdownRow[];
  label: string;
  hrefFor: (row: BreakdownRow) => string | null;
}) {
  const { sorted, header } = useSort(rows, {
    name: (r) => r.name,
    allowed: (r) => r.allowed,
    rejected: (r) => r.rejected,
    rate,
    degraded: (r) => r.degraded,
    shadow: (r) => r.shadowRejected,
  });
  return (
    <table className="usage-table" style={{ width: "100%", fontSize: 13 }}>
      <thead>
        <tr>
          {header("name", label)}
          {header("allowed", "Allowed", "right")}
          {header("rejected", "Rejected", "right")}
          {header("rate", "Rate", "right")}
          {header("degraded", "Degraded", "right")}
          {header("shadow", "Shadow", "right")}
        </tr>
      </thead>
      <tbody>
        {sorted.map((row) => {
          const href = hrefFor(row);
          const r = rate(row);
          return (
            <tr key={`${row.id ?? "other"}`}>
              <td>{href ? <Link href={href}>{row.name}</Link> : row.name}</td>
              <td align="right">{formatCount(row.allowed)}</td>
              <td align="right">{formatCount(row.rejected)}</td>
              <td align="right">{r >= 0 ? formatPercent(r) : "–"}</td>
              <td align="right">{formatCount(row.degraded)}</td>
              <td align="right">{formatCount(row.shadowRejected)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
