import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { rowContext } from "@/lib/usage/read/context";
import { visitRows } from "@/lib/usage/read/rows";
import { usageTenant } from "@/lib/control/data/usage/scope";

// Checks and rejections of the last minutes for one tenant (the tenants overview's line).

export interface TrafficSummary {
  checks: number;
  rejected: number;
  shadowRejected: number;
  /** decided while Redis was unreachable (by the fail-open/closed policy) */
  degraded: number;
}

export async function trafficSummary(
  principal: Principal,
  tenantSlug: string,
  lastMs = 15 * 60_000,
): Promise<TrafficSummary> {
  const tenant = await usageTenant(principal, tenantSlug);
  const now = Date.now();
  const sum = { checks: 0, rejected: 0, shadowRejected: 0, degraded: 0 };
  // summed as read, a minute at a time: no row per second, key and route is kept
  await visitRows(tenant.id, now - lastMs, now + 1, "seconds", rowContext(now), lastMs, (r) => {
    sum.checks += r.allowed + r.rejected + r.degraded;
    sum.rejected += r.rejected;
    sum.shadowRejected += r.shadowRejected;
    sum.degraded += r.degraded;
  });
  return sum;
}
