import "server-only";
import type { ConfigDocument, PlanDoc, RouteDoc, TenantDoc } from "@/lib/control/config/document";
import type { IdMap } from "@/lib/control/config/compile";
import type { Tx } from "@/lib/control/data/tx";
import { rowsToLimits } from "@/lib/control/data/limit-rows";
import { readOverrideDocs } from "@/lib/control/data/override-docs";
import { readGlobalLists, storedLists, storedPrefixes } from "@/lib/control/data/global-lists";
import { DEFAULT_HEADER_FLAVOUR, HEADER_FLAVOURS, type HeaderFlavour } from "@/lib/shared/config-terms";

/** A stored header flavour; one this version does not know reads as the default. */
function headerFlavourOf(text: string): HeaderFlavour {
  return HEADER_FLAVOURS.find((flavour) => flavour === text) ?? DEFAULT_HEADER_FLAVOUR;
}

const byName = <T extends { name: string }>(a: T, b: T): number => a.name.localeCompare(b.name);

function serviceOf(plan: {
  serviceChecksPerSecond: number | null;
  serviceBurst: number | null;
}): Pick<PlanDoc, "service"> {
  if (plan.serviceChecksPerSecond === null) return {};
  return {
    service: {
      checksPerSecond: plan.serviceChecksPerSecond,
      burst: plan.serviceBurst ?? plan.serviceChecksPerSecond,
    },
  };
}

type PlanRow = Parameters<typeof serviceOf>[0] & { name: string; limits: Parameters<typeof rowsToLimits>[0] };

/** A plan row as the document has it (the export, and what documents are validated against). */
export function planDocOf(plan: PlanRow): PlanDoc {
  return {
    name: plan.name,
    limits: rowsToLimits(plan.limits),
    // only when set: a plan without one reads as it always did
    ...serviceOf(plan),
  };
}

// The whole configuration as a document (export), read inside the caller's transaction so
// the compiled snapshot matches exactly what the transaction wrote.
export async function readDocument(tx: Tx, onlyTenantIds?: string[]): Promise<ConfigDocument> {
  // Sequential: a transaction is one connection, which runs one query at a time.
  const plans = await tx.plan.findMany({ include: { limits: true }, orderBy: { name: "asc" } });
  const globalRoutes = await tx.route.findMany({
    where: { tenantId: null },
    include: { limits: true },
    orderBy: { pattern: "asc" },
  });
  const tenants = await tx.tenant.findMany({
    where: onlyTenantIds ? { id: { in: onlyTenantIds } } : undefined,
    include: {
      plan: { select: { name: true } },
      limits: true,
      routes: { include: { limits: true }, orderBy: { pattern: "asc" } },
      // only keys with limits of their own are configuration: a busy tenant's thousands of
      // bare keys are not read for it
      apiKeys: { where: { limits: { some: {} } }, include: { limits: true } },
    },
    orderBy: { slug: "asc" },
  });
  const toRoute = (route: (typeof globalRoutes)[number]): RouteDoc => ({
    pattern: route.pattern,
    limits: rowsToLimits(route.limits),
  });
  const overrides = await readOverrideDocs(tx, Date.now(), onlyTenantIds);
  // the global lists belong to the whole configuration, not to a reading of some tenants
  const lists = onlyTenantIds === undefined ? await readGlobalLists(tx) : undefined;
  return {
    plans: plans.map(planDocOf),
    routes: globalRoutes.map(toRoute),
    tenants: tenants.map((tenant): TenantDoc => ({
      slug: tenant.slug,
      name: tenant.name,
      plan: tenant.plan.name,
      status: tenant.status,
      // only when set: documents of tenants without it read as they always did
      ...(tenant.headers !== null ? { headers: headerFlavourOf(tenant.headers) } : {}),
      ...withLists(tenant.lists, tenant.ipSubjects),
      ...(tenant.timeZone !== null ? { timeZone: tenant.timeZone } : {}),
      limits: rowsToLimits(tenant.limits),
      routes: tenant.routes.map(toRoute),
      // Only keys that carry limits are configuration; the rest are bare credentials.
      keys: tenant.apiKeys
        .filter((key) => key.limits.length > 0)
        .map((key) => ({ name: key.name, limits: rowsToLimits(key.limits) }))
        .sort(byName),
    })),
    // only when there are some: documents without overrides read as they always did
    ...(overrides.length > 0 ? { overrides } : {}),
    ...(lists !== undefined ? { lists } : {}),
  };
}

/** A tenant's lists and subnet keying as its document has them: only when set. */
function withLists(lists: unknown, ipSubjects: unknown): Pick<TenantDoc, "lists" | "ipSubjects"> {
  const read = storedLists(lists);
  const prefixes = storedPrefixes(ipSubjects);
  return {
    ...(read !== undefined ? { lists: read } : {}),
    ...(prefixes !== undefined ? { ipSubjects: prefixes } : {}),
  };
}

/** Database ids of every tenant (or of these) and live key, for the compiler. */
export async function readIdMap(tx: Tx, onlyTenantIds?: string[]): Promise<IdMap> {
  const tenants = await tx.tenant.findMany({
    where: onlyTenantIds ? { id: { in: onlyTenantIds } } : undefined,
    select: { id: true, slug: true, apiKeys: { select: { id: true, name: true } } },
  });
  return {
    tenants: Object.fromEntries(tenants.map((t) => [t.slug, t.id])),
    keys: Object.fromEntries(
      tenants.map((t) => [t.slug, Object.fromEntries(t.apiKeys.map((k) => [k.name, k.id]))]),
    ),
  };
}
