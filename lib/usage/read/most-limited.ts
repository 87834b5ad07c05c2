import "server-only";
import type { Principal } from "@/lib/shared/principal";
import type { RowContext } from "@/lib/usage/read/rows";
import { watermarks } from "@/lib/usage/read/rows";
import { routeLabel } from "@/lib/shared/usage-route";
import { rowContext } from "@/lib/usage/read/context";
import { RANGES, type RangeId } from "@/lib/usage/ranges";
import { limitedTenants } from "@/lib/control/data/usage/scope";
import { limitedSeriesTotals, namesOfKeys } from "@/lib/control/data/usage/series-totals";
import { totalStretches } from "@/lib/usage/read/total-stretches";
import { recentSubjects, recentTallies } from "@/lib/usage/read/most-limited-recent";
import type { LimitedEntry } from "@/lib/usage/read/most-limited-types";

// The overview's "most limited": keys, routes and subjects with the most rejections across
// every active tenant the principal sees (operators: all; members: their tenants only; beyond
// 50, the 50 that rejected most: limitedTenants). A suspended tenant's denials are the
// suspension's, not limits': it is left out. Per kind, the top by count and the top by
// rejection rate, so either sort of the table finds its leaders. The rolled-up part of the
// range is one query over all those tenants' key and route series (series-totals.ts), the
// minutes not rolled up yet and the subjects (the last hour at most) come from Redis.

const TOP = 10;
/** a rate over fewer checks says little: 1 of 1 is not "100 % limited" */
const MIN_CHECKS_FOR_RATE = 10;

interface Tally {
  tenantId: string;
  keyId: string;
  route: string;
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

/** The rolled-up and the recent totals added up per tenant and key, and per tenant and route. */
function merged(parts: Tally[]): { keys: Tally[]; routes: Tally[] } {
  const keys = new Map<string, Tally>();
  const routes = new Map<string, Tally>();
  for (const p of parts) {
    const isKey = p.route === "*";
    // checks without a key are no key's
    if (isKey && p.keyId === "") continue;
    const into = isKey ? keys : routes;
    const id = `${p.tenantId}\u0000${isKey ? p.keyId : p.route}`;
    const entry = into.get(id) ?? { ...p, checks: 0, rejected: 0 };
    entry.checks += p.checks;
    entry.rejected += p.rejected;
    into.set(id, entry);
  }
  return { keys: [...keys.values()], routes: [...routes.values()] };
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
  const { rolled, recent } = totalStretches(from, to, await watermarks(ctx));
  // at most MOST_LIMITED_TENANTS tenants are read: those that rejected most when there are more
  const tenants = await limitedTenants(principal, rolled, tenantsRead);
  if (tenants.length === 0) return [];
  const slugOf = new Map(tenants.map((t) => [t.id, t.slug]));
  const subjectFrom = Math.max(from, ctx.now - 3_600_000);
  const [stored, latest, subjects] = await Promise.all([
    limitedSeriesTotals([...slugOf.keys()], rolled),
    recentTallies(ctx, tenants, recent),
    recentSubjects(ctx, tenants, subjectFrom, ctx.now + 1, TOP),
  ]);
  const { keys, routes } = merged([...stored, ...latest]);
  const keyLeaders = leaders(keys);
  const routeLeaders = leaders(routes);
  const names = await namesOfKeys(keyLeaders.map((k) => k.keyId));
  const entry = (kind: "key" | "route", t: Tally): LimitedEntry => {
    const name = kind === "key" ? (names.get(t.keyId) ?? t.keyId) : routeLabel(t.route);
    return {
      kind,
      tenant: slugOf.get(t.tenantId) ?? t.tenantId,
      name,
      id: kind === "key" ? name : t.route,
      checks: t.checks,
      rejected: t.rejected,
      rate: t.checks > 0 ? t.rejected / t.checks : null,
    };
  };
  const subjectEntries = subjects
    .sort((a, b) => b.rejected - a.rejected)
    .slice(0, TOP)
    .map((s): LimitedEntry => ({
      kind: "subject",
      tenant: s.tenant,
      name: s.subject,
      id: s.subject,
      checks: null,
      rejected: s.rejected,
      rate: null,
    }));
  return [
    ...keyLeaders.map((t) => entry("key", t)),
    ...routeLeaders.map((t) => entry("route", t)),
    ...subjectEntries,
  ].sort((a, b) => b.rejected - a.rejected);
}
