import Link from "next/link";
import type { KeyTraffic } from "@/lib/usage/key-traffic";
import type { RangeId } from "@/lib/usage/ranges";
import { formatCount, formatPercent } from "@/components/charts/format";
import { Sparkline } from "@/components/usage/sparkline";
import { usageHref } from "@/components/usage/usage-hrefs";

// A key's traffic cells in the keys table: checks (linking to the key's usage drill-down),
// rejected, rejection rate and a sparkline over the selected range.

export function KeyTrafficCells({
  tenant,
  name,
  traffic,
  range,
}: {
  tenant: string;
  name: string;
  traffic: KeyTraffic | undefined;
  range: RangeId;
}) {
  const href = usageHref({ tenant, key: name, route: null, range });
  if (!traffic) {
    return (
      <>
        <td align="right">
          <Link href={href} className="muted" data-testid={`key-checks-${name}`}>
            0
          </Link>
        </td>
        <td align="right">0</td>
        <td align="right">–</td>
        <td />
      </>
    );
  }
  return (
    <>
      <td align="right">
        <Link href={href} data-testid={`key-checks-${name}`}>
          {formatCount(traffic.checks)}
        </Link>
      </td>
      <td align="right" data-testid={`key-rejected-${name}`}>
        {formatCount(traffic.rejected)}
      </td>
      <td align="right" data-testid={`key-rate-${name}`}>
        {traffic.rate === null ? "–" : formatPercent(traffic.rate)}
      </td>
      <td>
        <Sparkline values={traffic.spark} rejected={traffic.sparkRejected} label={`key ${name}`} />
      </td>
    </>
  );
}
