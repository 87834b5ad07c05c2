"use client";

import Link from "next/link";
import type { LimitedEntry } from "@/lib/usage/read/most-limited-types";
import type { RangeId } from "@/lib/usage/ranges";
import { formatCount, formatPercent } from "@/components/charts/format";
import { useSort } from "@/components/tables/use-sort";
import { usageHref } from "@/components/usage/usage-hrefs";

// The overview's most limited keys, routes and subjects across the tenants the viewer sees;
// sorted by rejections first, by rate on a click. Each row leads to where it can be looked
// into: a key's or route's usage drill-down, a subject's identifier lookup.

function hrefOf(entry: LimitedEntry, range: RangeId): string | null {
  const view = { tenant: entry.tenant, key: null, route: null, range };
  if (entry.kind === "key") return usageHref({ ...view, key: entry.id });
  if (entry.kind === "route") return entry.id === "" ? null : usageHref({ ...view, route: entry.id });
  return `/tenants/${encodeURIComponent(entry.tenant)}/lookup?subject=${encodeURIComponent(entry.id)}`;
}

export function MostLimitedTable({ entries, range }: { entries: LimitedEntry[]; range: RangeId }) {
  const { sorted, header } = useSort(entries, {
    name: (e) => e.name,
    kind: (e) => e.kind,
    tenant: (e) => e.tenant,
    rejected: (e) => e.rejected,
    rate: (e) => e.rate ?? -1,
  });
  if (entries.length === 0) return <p className="muted">Nothing was rejected in this range.</p>;
  return (
    <table data-testid="most-limited" style={{ width: "100%", fontSize: 13 }}>
      <thead>
        <tr>
          {header("name", "What")}
          {header("kind", "Kind")}
          {header("tenant", "Tenant")}
          {header("rejected", "Rejected", "right")}
          {header("rate", "Rejection rate", "right")}
        </tr>
      </thead>
      <tbody>
        {sorted.map((e) => {
          const href = hrefOf(e, range);
          return (
            <tr key={`${e.kind}:${e.tenant}:${e.id}`} data-testid={`limited-${e.kind}-${e.tenant}-${e.name}`}>
              <td>{href ? <Link href={href}>{e.name}</Link> : e.name}</td>
              <td>{e.kind}</td>
              <td className="mono">{e.tenant}</td>
              <td align="right">{formatCount(e.rejected)}</td>
              <td
                align="right"
                title={e.checks === null ? "subjects are counted only when rejected" : undefined}
              >
                {e.rate === null ? "–" : `${formatPercent(e.rate)} of ${formatCount(e.checks ?? 0)}`}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
