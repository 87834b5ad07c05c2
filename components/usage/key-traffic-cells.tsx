import type { ReactNode } from "react";
import Link from "next/link";
import type { KeyTraffic } from "@/lib/usage/read/key-traffic";
import type { RangeId } from "@/lib/usage/ranges";
import { formatCount, formatPercent } from "@/components/charts/format";
import { Sparkline } from "@/components/usage/sparkline";
import { usageHref } from "@/components/usage/usage-hrefs";

// A key's traffic cells in the keys table (a SortableTable): checks (linking to the key's
// usage drill-down), rejected, rejection rate and a sparkline over the selected range.

export const KEY_TRAFFIC_COLUMNS = [
  { id: "checks", label: "Checks", align: "right" as const },
  { id: "rejected", label: "Rejected", align: "right" as const },
  { id: "rate", label: "Rate", align: "right" as const },
  { id: "trend", label: "Trend", sortable: false },
];

export function keyTrafficSort(traffic: KeyTraffic | undefined): Record<string, number> {
  return { checks: traffic?.checks ?? 0, rejected: traffic?.rejected ?? 0, rate: traffic?.rate ?? -1 };
}

export function keyTrafficCells({
  tenant,
  name,
  traffic,
  range,
}: {
  tenant: string;
  name: string;
  traffic: KeyTraffic | undefined;
  range: RangeId;
}): ReactNode[] {
  const href = usageHref({ tenant, key: name, route: null, range });
  if (!traffic) {
    return [
      <Link key="checks" href={href} className="muted" data-testid={`key-checks-${name}`}>
        0
      </Link>,
      "0",
      "–",
      null,
    ];
  }
  return [
    <Link key="checks" href={href} data-testid={`key-checks-${name}`}>
      {formatCount(traffic.checks)}
    </Link>,
    <span key="rejected" data-testid={`key-rejected-${name}`}>
      {formatCount(traffic.rejected)}
    </span>,
    <span key="rate" data-testid={`key-rate-${name}`}>
      {traffic.rate === null ? "–" : formatPercent(traffic.rate)}
    </span>,
    <Sparkline key="trend" values={traffic.spark} rejected={traffic.sparkRejected} label={`key ${name}`} />,
  ];
}
