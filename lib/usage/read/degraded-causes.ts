import "server-only";
import { hasRole, isOperator, type Principal } from "@/lib/shared/principal";
import { usageTenant } from "@/lib/control/data/usage/scope";
import { rowContext } from "@/lib/usage/read/context";
import { degradedCausesKey, minuteOf } from "@/lib/usage/keys";
import { DEGRADED_CAUSES, type DegradedCause } from "@/lib/check/types";
import type { RowContext } from "@/lib/usage/read/rows";
import type { CauseCounts } from "@/lib/usage/types";

// Why recent checks were degraded, for the console's banner: the per-minute cause counts
// the recorder writes beside the usage counts (keys.ts, :c:), over the last minutes of the
// given tenants, and whether the reader can act on them (operators and tenant admins see
// the causes; viewers a short status). The causes live in Redis only, as long as the
// per-second usage: older degraded counts (PostgreSQL's minutes and hours) have none.

export interface RecentDegraded {
  /** per cause, summed over the tenants and minutes */
  causes: CauseCounts;
  /** operator, or admin (or owner) of at least one of the tenants */
  canAct: boolean;
}

export function noCauses(): CauseCounts {
  const counts = {} as CauseCounts;
  for (const cause of DEGRADED_CAUSES) counts[cause] = 0;
  return counts;
}

/** Whether the principal may act on degraded checks of these tenants (see the header). */
export function canActOnDegraded(principal: Principal, tenantIds: readonly string[]): boolean {
  return isOperator(principal) || tenantIds.some((id) => hasRole(principal, id, "admin"));
}

/** For the usage pages: one tenant's (by slug), or with null every tenant the principal sees. */
export async function mayActOnDegraded(principal: Principal, tenantSlug: string | null): Promise<boolean> {
  if (isOperator(principal)) return true;
  if (tenantSlug !== null)
    return canActOnDegraded(principal, [(await usageTenant(principal, tenantSlug)).id]);
  if (principal.kind === "user")
    return [...principal.memberships.keys()].some((id) => hasRole(principal, id, "admin"));
  return (
    principal.kind === "admin-token" &&
    principal.tenantId !== null &&
    hasRole(principal, principal.tenantId, "admin")
  );
}

/** One tenant's cause counts of the minutes in [from, to), added into `into`. */
async function addTenantCauses(
  ctx: RowContext,
  tenantId: string,
  from: number,
  to: number,
  into: CauseCounts,
): Promise<void> {
  // a tenant's keys share its hash tag: one pipeline on a Cluster too, a few small hashes
  const pipe = ctx.client.pipeline();
  for (let m = minuteOf(from); m <= minuteOf(to - 1); m++)
    pipe.hgetall(degradedCausesKey(ctx.ns, tenantId, m));
  for (const [error, value] of (await pipe.exec()) ?? []) {
    if (error || !value || typeof value !== "object") continue;
    for (const [cause, count] of Object.entries(value as Record<string, string>)) {
      if (cause in into) into[cause as DegradedCause] += Number(count) || 0;
    }
  }
}

/** The last `lastMs` of degraded causes over the tenants (NotFoundError for one not visible). */
export async function recentDegraded(
  principal: Principal,
  tenantSlugs: readonly string[],
  lastMs = 15 * 60_000,
  ctx: RowContext = rowContext(),
): Promise<RecentDegraded> {
  const tenants = await Promise.all(tenantSlugs.map((slug) => usageTenant(principal, slug)));
  const causes = noCauses();
  const canAct = canActOnDegraded(
    principal,
    tenants.map((t) => t.id),
  );
  // viewers get a short status: the causes are not read for them
  if (canAct)
    await Promise.all(tenants.map((t) => addTenantCauses(ctx, t.id, ctx.now - lastMs, ctx.now + 1, causes)));
  return { causes, canAct };
}
