import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { trafficSummary } from "@/lib/usage/read/summary";
import { recentDegraded } from "@/lib/usage/read/degraded-causes";
import { DegradedBanner } from "@/components/usage/degraded-banner";

// The degraded banner of the tenant and overview pages: decisions made without Redis in
// the last 15 minutes, over the given tenants, with their causes for those who can act on
// them. Usage that cannot be read shows no banner (the usage page says it is unavailable).

const MINUTES = 15;

export async function RecentDegradedBanner({
  principal,
  tenants,
}: {
  principal: Principal;
  tenants: string[];
}) {
  const sums = await Promise.all(tenants.map((t) => trafficSummary(principal, t).catch(() => null)));
  const degraded = sums.reduce((n, s) => n + (s?.degraded ?? 0), 0);
  if (degraded <= 0) return null;
  const recent = await recentDegraded(principal, tenants, MINUTES * 60_000).catch(() => null);
  const where = tenants.length === 1 ? "in the last 15 min" : "across your tenants in the last 15 min";
  return (
    <DegradedBanner
      degraded={degraded}
      where={where}
      minutes={MINUTES}
      full={recent?.canAct ?? false}
      causes={recent?.causes ?? null}
    />
  );
}
