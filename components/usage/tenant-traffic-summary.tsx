import "server-only";
import Link from "next/link";
import type { Principal } from "@/lib/shared/principal";
import { trafficSummary, type TrafficSummary } from "@/lib/usage/read/summary";
import { formatCount, formatPercent } from "@/components/charts/format";

// A small server component for the tenants overview: checks and rejection rate of the last
// 15 minutes for one tenant, linking to its usage page.

function describe(sum: TrafficSummary | null): string {
  if (sum === null) return "usage unavailable";
  if (sum.checks === 0) return "no checks in 15 min";
  const degraded = sum.degraded > 0 ? ` · ${formatCount(sum.degraded)} degraded` : "";
  return `${formatCount(sum.checks)} checks · ${formatPercent(sum.rejected / sum.checks)} rejected${degraded} (15 min)`;
}

export async function TenantTrafficSummary({ principal, tenant }: { principal: Principal; tenant: string }) {
  const sum = await trafficSummary(principal, tenant).catch(() => null);
  return (
    <Link
      href={`/usage/${encodeURIComponent(tenant)}`}
      className="muted"
      data-testid={`traffic-summary-${tenant}`}
    >
      {describe(sum)}
    </Link>
  );
}
