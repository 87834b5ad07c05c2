import Link from "next/link";
import type { KeyTraffic } from "@/lib/usage/read/key-traffic";
import type { RangeId } from "@/lib/usage/ranges";
import { formatCount, formatPercent } from "@/components/charts/format";
import type { ColumnDef } from "@/components/tables/column-defs";
import { Sparkline } from "@/components/usage/sparkline";
import { usageHref } from "@/components/usage/usage-hrefs";

// A key's traffic columns in the keys table (a SortableTable): checks (linking to the key's
// usage drill-down), rejected, rejection rate and a sparkline over the selected range.

export interface KeyTrafficItem {
  name: string;
  /** undefined: no traffic in the range, or usage could not be read */
  traffic: KeyTraffic | undefined;
}

export function keyTrafficColumns(tenant: string, range: RangeId): ColumnDef<KeyTrafficItem>[] {
  const href = (name: string): string => usageHref({ tenant, key: name, route: null, range });
  return [
    {
      id: "checks",
      label: "Checks",
      align: "right",
      sort: ({ traffic }) => traffic?.checks ?? 0,
      cell: ({ name, traffic }) =>
        traffic ? (
          <Link key="checks" href={href(name)} data-testid={`key-checks-${name}`}>
            {formatCount(traffic.checks)}
          </Link>
        ) : (
          <Link key="checks" href={href(name)} className="muted" data-testid={`key-checks-${name}`}>
            0
          </Link>
        ),
    },
    {
      id: "rejected",
      label: "Rejected",
      align: "right",
      sort: ({ traffic }) => traffic?.rejected ?? 0,
      cell: ({ name, traffic }) =>
        traffic ? (
          <span key="rejected" data-testid={`key-rejected-${name}`}>
            {formatCount(traffic.rejected)}
          </span>
        ) : (
          "0"
        ),
    },
    {
      id: "rate",
      label: "Rate",
      align: "right",
      sort: ({ traffic }) => traffic?.rate ?? -1,
      cell: ({ name, traffic }) =>
        traffic ? (
          <span key="rate" data-testid={`key-rate-${name}`}>
            {traffic.rate === null ? "–" : formatPercent(traffic.rate)}
          </span>
        ) : (
          "–"
        ),
    },
    {
      id: "trend",
      label: "Trend",
      cell: ({ name, traffic }) =>
        traffic ? (
          <Sparkline
            key="trend"
            values={traffic.spark}
            rejected={traffic.sparkRejected}
            label={`key ${name}`}
          />
        ) : null,
    },
  ];
}
