import {
  SNAPSHOT_FORMAT,
  type CompiledKey,
  type CompiledTenant,
  type LimitSet,
} from "@/lib/check/published/snapshot-types";
import type { PublishedConfig, PublishedKey, PublishedOverride } from "@/lib/check/published/published";
import type { PublishedLists } from "@/lib/check/lists/list-types";
import type { ConfigPart, KeyPart, PartTenant, TenantPart } from "@/lib/check/published/part-types";

// Parts -> the whole published configuration, as one compile of the installation would give
// it (split-published.ts is the inverse). For readers that want the whole: the admin API,
// a server starting up, PostgreSQL's copy.

/** keyDefault without the `by: key` limits: a check without a key has no key to count. */
export function keylessSet(set: LimitSet): LimitSet {
  const routed: LimitSet["routed"] = {};
  for (const [pattern, limits] of Object.entries(set.routed)) {
    const kept = limits.filter((limit) => limit.by !== "key");
    if (kept.length > 0) routed[pattern] = kept;
  }
  return { unrouted: set.unrouted.filter((limit) => limit.by !== "key"), routed };
}

/** The compiled tenant of a part: its `limits` made again, its bare keys put back (limits
 * null: the key default applies). */
export function withBareKeys(part: PartTenant, keys: Iterable<KeyPart>): CompiledTenant {
  const tenant: CompiledTenant = { ...part, limits: part.limits ?? keylessSet(part.keyDefault) };
  let copy: CompiledTenant | null = null;
  for (const key of keys) {
    if (tenant.keys[key.name] !== undefined) continue;
    copy ??= { ...tenant, keys: { ...tenant.keys }, keyNameById: { ...tenant.keyNameById } };
    copy.keys[key.name] = { id: key.id, name: key.name, limits: null };
    copy.keyNameById[key.id] = key.name;
  }
  if (copy === null) return tenant;
  // the compiler lists keys by name: keep that order so both give the same JSON
  const all = copy.keys;
  copy.keys = Object.fromEntries(
    Object.keys(all)
      .sort()
      .map((name) => [name, all[name] as CompiledKey]),
  );
  return copy;
}

const publishedKey = (part: KeyPart): PublishedKey => ({
  tenant: part.tenant,
  name: part.name,
  expiresAt: part.expiresAt,
  revoked: part.revoked,
  ...(part.previous !== undefined ? { previous: part.previous } : {}),
});

export function assemblePublished(
  version: number,
  parts: Iterable<readonly [string, ConfigPart]>,
): PublishedConfig {
  const tenants: TenantPart[] = [];
  const keysOf = new Map<string, KeyPart[]>();
  const keys: Record<string, PublishedKey> = {};
  let routes: string[] = [];
  let serviceTokens: PublishedConfig["serviceTokens"] = {};
  let lists: PublishedLists | undefined;
  for (const [scope, part] of parts) {
    if (part.kind === "global") ({ routes, serviceTokens, lists } = part);
    else if (part.kind === "tenant") tenants.push(part);
    else {
      keys[scope.slice(2)] = publishedKey(part);
      const list = keysOf.get(part.tenant);
      if (list) list.push(part);
      else keysOf.set(part.tenant, [part]);
    }
  }
  tenants.sort((a, b) => (a.tenant.slug < b.tenant.slug ? -1 : a.tenant.slug > b.tenant.slug ? 1 : 0));
  const compiled: Record<string, CompiledTenant> = {};
  const tenantSlugById: Record<string, string> = {};
  const overrides: PublishedOverride[] = [];
  for (const part of tenants) {
    const tenant = withBareKeys(part.tenant, keysOf.get(part.tenant.slug) ?? []);
    compiled[tenant.slug] = tenant;
    tenantSlugById[tenant.id] = tenant.slug;
    overrides.push(...part.overrides);
  }
  return {
    version,
    snapshot: {
      format: SNAPSHOT_FORMAT,
      version,
      routes,
      tenants: compiled,
      tenantSlugById,
      ...(lists !== undefined ? { lists } : {}),
    },
    keys,
    serviceTokens,
    ...(overrides.length > 0 ? { overrides } : {}),
  };
}
