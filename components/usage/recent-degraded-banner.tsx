import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { trafficSummary } from "@/lib/usage/read/summary";
import { DegradedBanner } from "@/components/usage/degraded-banner";

// The degraded banner of the tenant and overview pages: decisions made without Redis in
// the last 15 minutes, over the given tenants. Usage that cannot be read shows no banner
// (the usage page says it is unavailable).

export async function RecentDegradedBanner({
  principal,
  tenants,
}: {
  principal: Principal;
  tenants: string[];
}) {
  const sums = await Promise.all(tenants.map((t) => trafficSummary(principal, t).catch(() => null)));
  const degraded = sums.reduce((n, s) => n + (s?.degraded ?? 0), 0);
  const where = tenants.length === 1 ? "in the last 15 min" : "across your tenants in the last 15 min";
  return <DegradedBanner degraded={degraded} where={where} />;
}
