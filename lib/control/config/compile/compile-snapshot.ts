// Document + ids -> Snapshot (snapshot-types.ts). Pure and deterministic: the same input
// gives the same JSON, so servers can compare and tests can pin it.

import {
  resolveTenantInheritance,
  type ConfigDocument,
  type InheritanceScope,
  type LimitSlot,
  type TenantDoc,
} from "@/lib/control/config/document";

import { resolveServiceLimit } from "@/lib/check/published/service-limit-schema";
import { DEFAULT_HEADER_FLAVOUR } from "@/lib/shared/config-terms";
import { hasEntries } from "@/lib/check/lists/list-types";

import { compileLimit, type KeyIdOf } from "./compile-limit";
import type { IdMap } from "./id-map";
import {
  SNAPSHOT_FORMAT,
  type CompiledKey,
  type CompiledLimit,
  type CompiledTenant,
  type LimitSet,
  type Snapshot,
} from "../../../check/published/snapshot-types";

function toLimitSet(limits: readonly CompiledLimit[]): LimitSet {
  const set: LimitSet = { unrouted: [], routed: {} };
  for (const limit of limits) {
    if (limit.route === null) set.unrouted.push(limit);
    else (set.routed[limit.route] ??= []).push(limit);
  }
  return set;
}

function compileSlots(slots: readonly LimitSlot[], keyIdOf: KeyIdOf, timeZone?: string): CompiledLimit[] {
  return slots.flatMap((slot) => compileLimit(slot, keyIdOf, timeZone) ?? []);
}

function compileTenant(
  scope: InheritanceScope,
  tenant: TenantDoc,
  index: number,
  ids: IdMap,
): CompiledTenant {
  const id = ids.tenants[tenant.slug];
  if (id === undefined) throw new Error(`compileSnapshot: the IdMap has no id for tenant "${tenant.slug}"`);
  const keyIds: Record<string, string> = { ...ids.keys[tenant.slug] };
  const keyIdOf: KeyIdOf = (name) => {
    const keyId = keyIds[name];
    if (keyId === undefined)
      throw new Error(`compileSnapshot: the IdMap has no id for key "${name}" of tenant "${tenant.slug}"`);
    return keyId;
  };
  const inheritance = resolveTenantInheritance(scope, tenant, index);
  const tenantLimits = compileSlots(inheritance.tenant, keyIdOf, tenant.timeZone);

  const keys: Record<string, CompiledKey> = {};
  const keyNameById: Record<string, string> = {};
  const keyNames = [...new Set([...Object.keys(keyIds), ...tenant.keys.map((key) => key.name)])].sort();
  for (const name of keyNames) {
    const keySlots = inheritance.keys.get(name);
    const keyId = keyIdOf(name);
    keys[name] = {
      id: keyId,
      name,
      limits: keySlots ? toLimitSet(compileSlots(keySlots, keyIdOf, tenant.timeZone)) : null,
    };
    keyNameById[keyId] = name;
  }
  return {
    id,
    slug: tenant.slug,
    name: tenant.name ?? tenant.slug,
    plan: tenant.plan,
    status: tenant.status,
    routes: tenant.routes.map((route) => route.pattern),
    limits: toLimitSet(tenantLimits.filter((limit) => limit.by !== "key")),
    keyDefault: toLimitSet(tenantLimits),
    keys,
    keyNameById,
    service: resolveServiceLimit(scope.plans.find((plan) => plan.name === tenant.plan)?.service),
    // only when not the default: snapshots of tenants without it stay as they were
    ...(tenant.headers !== undefined && tenant.headers !== DEFAULT_HEADER_FLAVOUR
      ? { headers: tenant.headers }
      : {}),
    // only when set: snapshots of tenants without them stay as they were
    ...(hasEntries(tenant.lists) ? { lists: tenant.lists } : {}),
    ...(tenant.ipSubjects !== undefined ? { ipSubjects: tenant.ipSubjects } : {}),
  };
}

/** The document must be complete (plans and routes as they are) and valid. */
export function compileSnapshot(document: ConfigDocument, ids: IdMap, version: number): Snapshot {
  const scope: InheritanceScope = { plans: document.plans ?? [], routes: document.routes ?? [] };
  const tenants: Record<string, CompiledTenant> = {};
  const tenantSlugById: Record<string, string> = {};
  (document.tenants ?? []).forEach((tenant, index) => {
    const compiled = compileTenant(scope, tenant, index, ids);
    tenants[tenant.slug] = compiled;
    tenantSlugById[compiled.id] = tenant.slug;
  });
  return {
    format: SNAPSHOT_FORMAT,
    version,
    routes: scope.routes.map((route) => route.pattern),
    tenants,
    tenantSlugById,
    ...(hasEntries(document.lists) ? { lists: document.lists } : {}),
  };
}
