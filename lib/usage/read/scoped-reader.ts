import "server-only";
import type { Principal } from "@/lib/shared/principal";
import type { TenantRef } from "@/lib/control/data/tenant-access";
import {
  ALL_PAIRS,
  totalsSource,
  visitRows,
  type RowContext,
  type RowGrouping,
  type UsageRow,
} from "@/lib/usage/read/rows";
import { keyIdByName, keyNames, usageTenant, visibleTenants } from "@/lib/control/data/usage/scope";
import { addCounts, ZERO_COUNTS, type UsageSource } from "@/lib/usage/types";

// The one way usage is read for a reader: the admin API, the usage page and its live feed,
// the keys page and the overview all come through here, summing rows as they are read.
// Scoping: one tenant the principal may see (NotFoundError otherwise) or, without a
// tenant, every tenant it sees; then narrowed to a key and a route.

export interface UsageScope {
  /** undefined: every tenant the principal sees */
  tenant?: string;
  /** a key name; needs a tenant */
  key?: string;
  /** a route pattern as recorded ("" for checks that matched none) */
  route?: string;
  /** only these key ids (one page of the keys list); needs a tenant */
  keyIds?: readonly string[];
  from: number;
  to: number;
  source: UsageSource;
  /** key names of every tenant read, not only of a single one (the "most limited" list) */
  withNames?: boolean;
  /** without a tenant: only these of the visible tenants (already chosen by a scoped query) */
  among?: TenantRef[];
}

export interface ScopedRow extends UsageRow {
  tenant: string;
}

interface Scoped {
  tenants: TenantRef[];
  /** the single tenant read, if one */
  only: TenantRef | undefined;
  /** the key and route asked for, as the store filters them (in SQL for PostgreSQL's rows) */
  filter: Pick<RowGrouping, "keyId" | "route" | "keyIds">;
}

async function scoped(principal: Principal, scope: UsageScope): Promise<Scoped> {
  const tenants =
    scope.tenant === undefined
      ? (scope.among ?? (await visibleTenants(principal)))
      : [await usageTenant(principal, scope.tenant)];
  const only = tenants.length === 1 ? tenants[0] : undefined;
  const keyId = scope.key !== undefined && only ? await keyIdByName(only, scope.key) : undefined;
  const filter = {
    ...(keyId === undefined ? {} : { keyId }),
    ...(scope.route === undefined ? {} : { route: scope.route }),
    ...(scope.keyIds !== undefined && only ? { keyIds: scope.keyIds } : {}),
  };
  return { tenants, only, filter };
}

async function namesOf(read: Scoped, scope: UsageScope): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (!read.only && !scope.withNames) return names;
  for (const tenant of read.tenants) for (const [id, name] of await keyNames(tenant.id)) names.set(id, name);
  return names;
}

export interface CompactUsage {
  tenants: TenantRef[];
  /** per tenant and step: t the step's start, keyId and route "" (a chart's series) */
  series: ScopedRow[];
  /** per tenant and key over the whole range, route "" (t = from): the key breakdown; per
   * tenant only (keyId "" too) when the read asked for tenants' totals */
  byKey: ScopedRow[];
  /** per tenant and route over the whole range, keyId "" (t = from): the route breakdown */
  byRoute: ScopedRow[];
  names: Map<string, string>;
}

type ScopedVisit = (row: UsageRow, tenant: string) => void;

/** The resolved scope's rows from `source`, tenant by tenant, narrowed and grouped by the store. */
async function visitTenants(
  read: Scoped,
  scope: UsageScope,
  source: UsageSource,
  ctx: RowContext,
  grainMs: number,
  visit: ScopedVisit,
  grouping: Pick<RowGrouping, "byKey" | "byRoute">,
): Promise<void> {
  const within = { ...grouping, ...read.filter };
  for (const { id, slug } of read.tenants)
    await visitRows(id, scope.from, scope.to, source, ctx, grainMs, (row) => visit(row, slug), within);
}

/**
 * The scoped rows handed to `visit` as they are read (Redis a minute at a time, PostgreSQL a
 * window at a time), summed per `grainMs` and per key and route as `grouping` keeps them,
 * for readers that only sum them: nothing per second, key and route is kept.
 */
export async function visitScoped(
  principal: Principal,
  scope: UsageScope,
  ctx: RowContext,
  grainMs: number,
  visit: ScopedVisit,
  grouping: Pick<RowGrouping, "byKey" | "byRoute"> = ALL_PAIRS,
): Promise<{ tenants: TenantRef[]; names: Map<string, string> }> {
  const read = await scoped(principal, scope);
  await visitTenants(read, scope, scope.source, ctx, grainMs, visit, grouping);
  return { tenants: read.tenants, names: await namesOf(read, scope) };
}

/**
 * What a chart draws, summed while reading: the series per step and the totals per key and
 * per route, without the rows per second, key and route in between. Those are a busy
 * tenant's every pair of key and route in every second (2.4 million for an hour of the
 * bench's realistic mix, more than the app process's heap). Rolled-up ranges are read in
 * passes, each summed in SQL from the coarsest table that answers it: the steps from the
 * tenant's own series, then the totals per key and per route over the whole range from the
 * days (totalsSource; their edges from hours and minutes), never from key x route pairs
 * unless a key is asked for (its routes are pairs). `totals: "tenants"` (the overview) sums
 * each tenant whole instead of per key and route.
 */
export async function readCompact(
  principal: Principal,
  scope: UsageScope & { stepMs: number; totals?: "keys-routes" | "tenants" },
  ctx: RowContext,
): Promise<CompactUsage> {
  const series = new Map<string, ScopedRow>();
  const byKey = new Map<string, ScopedRow>();
  const byRoute = new Map<string, ScopedRow>();
  const add = (into: Map<string, ScopedRow>, id: string, make: () => ScopedRow, row: UsageRow): void => {
    let found = into.get(id);
    if (!found) into.set(id, (found = make()));
    addCounts(found, row);
  };
  const toSeries = (row: UsageRow, slug: string): void => {
    const t = Math.floor(row.t / scope.stepMs) * scope.stepMs;
    add(series, `${slug}|${t}`, () => ({ t, keyId: "", route: "", tenant: slug, ...ZERO_COUNTS }), row);
  };
  const total = (into: Map<string, ScopedRow>, keyId: string, route: string, row: UsageRow, slug: string) =>
    add(
      into,
      `${slug}|${keyId}|${route}`,
      () => ({ t: scope.from, keyId, route, tenant: slug, ...ZERO_COUNTS }),
      row,
    );
  const toKey = (row: UsageRow, slug: string): void => total(byKey, row.keyId, "", row, slug);
  const toRoute = (row: UsageRow, slug: string): void => total(byRoute, "", row.route, row, slug);
  // the scope is resolved once (tenants, the key's id), however many passes read it
  const read = await scoped(principal, scope);
  const tenantsOnly = scope.totals === "tenants";
  if (scope.source === "seconds") {
    // Redis' seconds: one pass over its minutes fills all three
    const all: ScopedVisit = (row, slug) => {
      toSeries(row, slug);
      toKey(tenantsOnly ? { ...row, keyId: "" } : row, slug);
      if (!tenantsOnly) toRoute(row, slug);
    };
    await visitTenants(read, scope, "seconds", ctx, scope.stepMs, all, ALL_PAIRS);
  } else {
    const whole = Math.max(scope.stepMs, scope.to - scope.from);
    const totals = totalsSource(scope.source);
    await visitTenants(read, scope, scope.source, ctx, scope.stepMs, toSeries, NONE);
    if (tenantsOnly) await visitTenants(read, scope, totals, ctx, whole, toKey, NONE);
    else {
      await visitTenants(read, scope, totals, ctx, whole, toKey, { byKey: true, byRoute: false });
      await visitTenants(read, scope, totals, ctx, whole, toRoute, { byKey: false, byRoute: true });
    }
  }
  return {
    tenants: read.tenants,
    series: [...series.values()],
    byKey: [...byKey.values()],
    byRoute: [...byRoute.values()],
    names: await namesOf(read, scope),
  };
}

const NONE = { byKey: false, byRoute: false };
