import Link from "next/link";
import { formatCount, formatPercent } from "@/components/charts/format";

// The tenants list's Traffic cell: the rollup's last 15 minutes of the tenant, linking to
// its usage page.

export function TenantTrafficCell({
  slug,
  checks,
  rejected,
  degraded,
}: {
  slug: string;
  checks: number;
  rejected: number;
  degraded: number;
}) {
  const text =
    checks === 0
      ? "no checks"
      : `${formatCount(checks)} checks · ${formatPercent(rejected / checks)} rejected${
          degraded > 0 ? ` · ${formatCount(degraded)} degraded` : ""
        }`;
  return (
    <Link
      href={`/usage/${encodeURIComponent(slug)}`}
      className="muted"
      data-testid={`traffic-summary-${slug}`}
    >
      {text}
    </Link>
  );
}
