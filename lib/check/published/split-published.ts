import type { CompiledTenant } from "@/lib/check/published/snapshot-types";
import { keylessSet } from "@/lib/check/published/assemble-published";
import type { PublishedConfig } from "@/lib/check/published/published";
import {
  GLOBAL_SCOPE,
  keyScope,
  tenantScope,
  type ConfigPart,
  type KeyPart,
  type PartTenant,
  type TenantPart,
} from "@/lib/check/published/part-types";

// A compiled configuration (the whole installation, or the tenants a change touched) cut
// into parts. assemblePublished is its inverse: assemble(split(x)) deep-equals x.

/** The tenant without its bare keys that have key parts: those travel in their own parts. */
function ownKeysOnly(tenant: CompiledTenant, withParts: ReadonlySet<string> | undefined): PartTenant {
  const keys: CompiledTenant["keys"] = {};
  const keyNameById: Record<string, string> = {};
  for (const [name, key] of Object.entries(tenant.keys)) {
    if (key.limits === null && withParts?.has(name)) continue;
    keys[name] = key;
    keyNameById[key.id] = name;
  }
  const { limits, ...rest } = tenant;
  // left out only when made again exactly on arrival (a third less to store and ship)
  const derived = JSON.stringify(limits) === JSON.stringify(keylessSet(tenant.keyDefault));
  return derived ? { ...rest, keys, keyNameById } : { ...rest, limits, keys, keyNameById };
}

/** The parts of `config`: the global part only when `withGlobal`, every tenant and key it holds. */
export function splitPublished(config: PublishedConfig, withGlobal = true): Map<string, ConfigPart> {
  const parts = new Map<string, ConfigPart>();
  if (withGlobal)
    parts.set(GLOBAL_SCOPE, {
      kind: "global",
      routes: config.snapshot.routes,
      serviceTokens: config.serviceTokens,
      ...(config.snapshot.lists !== undefined ? { lists: config.snapshot.lists } : {}),
    });
  const overrides = new Map<string, TenantPart["overrides"]>();
  for (const override of config.overrides ?? []) {
    const list = overrides.get(override.tenant);
    if (list) list.push(override);
    else overrides.set(override.tenant, [override]);
  }
  const keyNames = new Map<string, Set<string>>();
  for (const key of Object.values(config.keys)) {
    const names = keyNames.get(key.tenant);
    if (names) names.add(key.name);
    else keyNames.set(key.tenant, new Set([key.name]));
  }
  for (const [slug, tenant] of Object.entries(config.snapshot.tenants)) {
    parts.set(tenantScope(slug), {
      kind: "tenant",
      tenant: ownKeysOnly(tenant, keyNames.get(slug)),
      overrides: overrides.get(slug) ?? [],
    });
  }
  for (const [hash, key] of Object.entries(config.keys)) {
    const id = config.snapshot.tenants[key.tenant]?.keys[key.name]?.id;
    if (id === undefined) continue; // a key of a tenant not compiled here
    const part: KeyPart = { kind: "key", ...key, id };
    parts.set(keyScope(hash), part);
  }
  return parts;
}
