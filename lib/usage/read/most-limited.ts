import "server-only";
import type { Principal } from "@/lib/shared/principal";
import type { RowContext, UsageRow } from "@/lib/usage/read/rows";
import { sourceFor, totalsSource } from "@/lib/usage/read/rows";
import { routeLabel } from "@/lib/shared/usage-route";
import { rowContext } from "@/lib/usage/read/context";
import { topOffenders } from "@/lib/usage/read/offenders";
import { RANGES, type RangeId } from "@/lib/usage/ranges";
import { visitScoped } from "@/lib/usage/read/scoped-reader";
import { limitedTenants } from "@/lib/control/data/usage/scope";
import type { LimitedEntry } from "@/lib/usage/read/most-limited-types";

// The overview's "most limited": keys, routes and subjects with the most rejections across
// every active tenant the principal sees (operators: all; members: their tenants only, through
// the scoped reader; beyond 50, the 50 that rejected most: limitedTenants). A suspended
// tenant's denials are the suspension's, not limits': it is left out. Per kind, the top by count and the top by rejection rate, so either sort
// of the table finds its leaders. Subjects come from the offender sets: the last hour at most.

const TOP = 10;
/** a rate over fewer checks says little: 1 of 1 is not "100 % limited" */
const MIN_CHECKS_FOR_RATE = 10;

interface Tally {
  tenant: string;
  id: string;
  checks: number;
  rejected: number;
}

function leaders(tallies: Iterable<Tally>): Tally[] {
  const limited = [...tallies].filter((t) => t.rejected > 0);
  const byCount = [...limited].sort((a, b) => b.rejected - a.rejected).slice(0, TOP);
  const byRate = limited
    .filter((t) => t.checks >= MIN_CHECKS_FOR_RATE)
    .sort((a, b) => b.rejected / b.checks - a.rejected / a.checks || b.rejected - a.rejected)
    .slice(0, TOP);
  return [...new Set([...byCount, ...byRate])];
}

function tally(map: Map<string, Tally>, tenant: string, id: string, checks: number, rejected: number): void {
  const at = `${tenant}\u0000${id}`;
  const entry = map.get(at) ?? { tenant, id, checks: 0, rejected: 0 };
  entry.checks += checks;
  entry.rejected += rejected;
  map.set(at, entry);
}

export async function mostLimited(
  principal: Principal,
  range: RangeId,
  ctx: RowContext = rowContext(),
  tenantsRead?: number,
): Promise<LimitedEntry[]> {
  const { rangeMs, stepMs } = RANGES[range];
  const to = Math.ceil((ctx.now + 1) / stepMs) * stepMs;
  const from = to - rangeMs;
  // at most MOST_LIMITED_TENANTS tenants are read: those that rejected most when there are more
  const among = await limitedTenants(principal, from, tenantsRead);
  const scope = { from, to, source: totalsSource(sourceFor(stepMs)), withNames: true, among };
  const keys = new Map<string, Tally>();
  const routes = new Map<string, Tally>();
  // summed as read over the whole range (the list has no time): no row per step is kept. Keys
  // and routes are read apart, from their own series (a tenant's 1,000 keys and 50 routes),
  // not from its key x route pairs (4,800 on the bench's realistic mix, a row each a day).
  const checksOf = (row: UsageRow) => row.allowed + row.rejected + row.degraded;
  const { tenants, names } = await visitScoped(
    principal,
    scope,
    ctx,
    rangeMs,
    (row, tenant) => {
      if (row.keyId !== "") tally(keys, tenant, row.keyId, checksOf(row), row.rejected);
    },
    { byKey: true, byRoute: false },
  );
  await visitScoped(
    principal,
    { ...scope, withNames: false },
    ctx,
    rangeMs,
    (row, tenant) => tally(routes, tenant, row.route, checksOf(row), row.rejected),
    { byKey: false, byRoute: true },
  );
  const subjectFrom = Math.max(from, ctx.now - 3_600_000);
  const offenders = await Promise.all(
    tenants.map(async (t) =>
      (await topOffenders(principal, t.slug, subjectFrom, ctx.now + 1, TOP, ctx))
        .filter((o) => o.kind === "subject")
        .map((o): LimitedEntry => ({
          kind: "subject",
          tenant: t.slug,
          name: o.name,
          id: o.name,
          checks: null,
          rejected: o.rejected,
          rate: null,
        })),
    ),
  );
  const entry = (kind: "key" | "route", t: Tally): LimitedEntry => ({
    kind,
    tenant: t.tenant,
    name: kind === "key" ? (names.get(t.id) ?? t.id) : routeLabel(t.id),
    id: kind === "key" ? (names.get(t.id) ?? t.id) : t.id,
    checks: t.checks,
    rejected: t.rejected,
    rate: t.checks > 0 ? t.rejected / t.checks : null,
  });
  const subjects = offenders
    .flat()
    .sort((a, b) => b.rejected - a.rejected)
    .slice(0, TOP);
  return [
    ...leaders(keys.values()).map((t) => entry("key", t)),
    ...leaders(routes.values()).map((t) => entry("route", t)),
    ...subjects,
  ].sort((a, b) => b.rejected - a.rejected);
}
