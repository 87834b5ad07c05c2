import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { degradedTenantSlugs, visibleTrafficTotals } from "@/lib/control/data/queries/tenant-page";
import { recentDegraded } from "@/lib/usage/read/degraded-causes";
import { DegradedBanner } from "@/components/usage/degraded-banner";

// The overview's degraded banner over every tenant the viewer sees, from the rollup's
// 15-minute totals per tenant (one query however many tenants); the causes are read only for
// the tenants that had degraded checks, the 50 with most.

const MINUTES = 15;
const CAUSE_TENANTS = 50;

export async function OverviewDegradedBanner({ principal }: { principal: Principal }) {
  const totals = await visibleTrafficTotals(principal).catch(() => null);
  if (!totals || totals.degraded <= 0) return null;
  const slugs = await degradedTenantSlugs(principal, CAUSE_TENANTS);
  const recent = await recentDegraded(principal, slugs, MINUTES * 60_000).catch(() => null);
  return (
    <DegradedBanner
      degraded={totals.degraded}
      where="across your tenants in the last 15 min"
      minutes={MINUTES}
      full={recent?.canAct ?? false}
      causes={recent?.causes ?? null}
    />
  );
}
