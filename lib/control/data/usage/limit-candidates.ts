import "server-only";
import type { Principal } from "@/lib/shared/principal";
import type { CompiledLimit, CompiledTenant, LimitSet, Snapshot } from "@/lib/check/published/snapshot-types";
import { latestPublished } from "@/lib/control/data/config-versions";
import type { TenantRef } from "@/lib/control/data/tenant-access";
import { usageTenant } from "@/lib/control/data/usage/scope";

// The enforced limits of a tenant that usage can be measured against, from the published
// config: tenant-wide and per-key ones (per-subject limits cannot be seen in usage data,
// which is not kept per subject). Shared by Hottest limits and the limit lines.

export interface Candidate {
  limit: CompiledLimit;
  /** key ids it applies to, or null for the whole tenant */
  keyIds: string[] | null;
}

/** A drill-down: only limits that apply to this key and route. */
export interface LimitFilter {
  keyId?: string;
  route?: string;
}

function limitsOf(set: LimitSet): CompiledLimit[] {
  return [...set.unrouted, ...Object.values(set.routed).flat()];
}

function candidates(tenant: CompiledTenant): Candidate[] {
  const out: Candidate[] = limitsOf(tenant.limits).map((limit) => ({ limit, keyIds: null }));
  const defaultKeys = Object.values(tenant.keys)
    .filter((k) => k.limits === null)
    .map((k) => k.id);
  for (const limit of limitsOf(tenant.keyDefault))
    if (limit.by === "key") out.push({ limit, keyIds: defaultKeys });
  for (const key of Object.values(tenant.keys)) {
    for (const limit of key.limits ? limitsOf(key.limits) : [])
      if (limit.by === "key") out.push({ limit, keyIds: [key.id] });
  }
  return out.filter((c) => c.limit.by !== "subject" && c.limit.rule.mode === "enforce");
}

function applies(c: Candidate, filter: LimitFilter): boolean {
  if (filter.keyId !== undefined && c.keyIds !== null && !c.keyIds.includes(filter.keyId)) return false;
  return filter.route === undefined || c.limit.route === null || c.limit.route === filter.route;
}

/** The tenant (NotFoundError when the principal may not see it) and its measurable limits. */
export async function measurableLimits(
  principal: Principal,
  tenantSlug: string,
  filter: LimitFilter = {},
): Promise<{ tenant: TenantRef; list: Candidate[] }> {
  const tenant = await usageTenant(principal, tenantSlug);
  const published = await latestPublished();
  const snapshot: Snapshot | undefined = published?.snapshot;
  const compiled = snapshot?.tenants[tenant.slug];
  return { tenant, list: compiled ? candidates(compiled).filter((c) => applies(c, filter)) : [] };
}

/** Limits of the tenant's published config that the usage page speaks of, each counted once. */
export interface LimitKindCounts {
  /** in shadow mode (any level, per subject too): without any, the shadow chart is empty for a reason */
  shadow: number;
  /** algorithm concurrency: only then does the page draw the leases chart */
  concurrency: number;
}

export async function limitKindCounts(principal: Principal, tenantSlug: string): Promise<LimitKindCounts> {
  const tenant = await usageTenant(principal, tenantSlug);
  const compiled = (await latestPublished())?.snapshot?.tenants[tenant.slug];
  if (!compiled) return { shadow: 0, concurrency: 0 };
  const sets = [
    compiled.limits,
    compiled.keyDefault,
    ...Object.values(compiled.keys).flatMap((k) => k.limits ?? []),
  ];
  const all = sets.flatMap(limitsOf);
  // a tenant's limit is compiled into each key's set as well: count each (name, route) once
  const distinct = (limits: CompiledLimit[]) => new Set(limits.map((l) => `${l.name}|${l.route ?? ""}`)).size;
  return {
    shadow: distinct(all.filter((l) => l.rule.mode === "shadow")),
    concurrency: distinct(all.filter((l) => l.rule.algorithm === "concurrency")),
  };
}
