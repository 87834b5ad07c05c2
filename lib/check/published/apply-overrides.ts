// Temporary overrides (docs/overrides.md) applied to a compiled snapshot at one moment: the
// config index calls this when it builds and again at the next start or end, so overrides
// begin and end on time on every server without a new config version. Pure: the same
// snapshot, overrides and time give the same result. A changed limit keeps its id, so its
// counters stay where they were (raising a limit for an hour resets nobody's usage).

import type { PublishedOverride } from "@/lib/check/published/published";

import type { CompiledLimit, CompiledTenant, LimitSet, Snapshot } from "./snapshot-types";

export interface OverridesAt {
  /** the overrides in force at that moment, oldest start first */
  active: PublishedOverride[];
  /** the next start or end after it (epoch ms), or null when nothing changes any more */
  nextChangeAt: number | null;
}

/** Which overrides are in force at `now` (start inclusive, end exclusive), and when that changes. */
export function overridesAt(overrides: readonly PublishedOverride[], now: number): OverridesAt {
  const active: PublishedOverride[] = [];
  let next: number | null = null;
  const consider = (at: number) => {
    if (at > now && (next === null || at < next)) next = at;
  };
  for (const override of overrides) {
    if (override.startsAt <= now && now < override.endsAt) active.push(override);
    consider(override.startsAt);
    consider(override.endsAt);
  }
  active.sort((a, b) => a.startsAt - b.startsAt || a.id.localeCompare(b.id));
  return { active, nextChangeAt: next };
}

/** The limit under an override, or null when the override disables it. */
export function overriddenLimit(limit: CompiledLimit, override: PublishedOverride): CompiledLimit | null {
  if (override.value === null) return null;
  const endsAt = new Date(override.endsAt).toISOString();
  if (override.value === 0) {
    // A block: decided in memory, never counted (the limiter needs a limit of 1 or more).
    const rule = { ...limit.rule, limit: 0, burst: null, mode: "enforce" as const };
    return { ...limit, rule, override: { id: override.id, endsAt, blocked: true } };
  }
  const { burst } = limit.rule;
  // a burst scales with the limit, so a raised rate also holds a proportionally larger burst
  const scaled = burst === null ? null : Math.max(1, Math.round((burst * override.value) / limit.rule.limit));
  const rule = { ...limit.rule, limit: override.value, burst: scaled };
  return { ...limit, rule, override: { id: override.id, endsAt, blocked: false } };
}

function applyToList(
  limits: readonly CompiledLimit[],
  byName: ReadonlyMap<string, PublishedOverride>,
  onlySubject: boolean,
): CompiledLimit[] {
  return limits.flatMap((limit) => {
    const override = byName.get(limit.name);
    if (!override || (onlySubject && limit.by !== "subject")) return [limit];
    return overriddenLimit(limit, override) ?? [];
  });
}

function applyToSet(set: LimitSet, list: readonly PublishedOverride[], onlySubject = false): LimitSet {
  const byName = new Map(list.map((override) => [override.limit, override]));
  const routed: Record<string, CompiledLimit[]> = {};
  for (const [pattern, limits] of Object.entries(set.routed))
    routed[pattern] = applyToList(limits, byName, onlySubject);
  return { unrouted: applyToList(set.unrouted, byName, onlySubject), routed };
}

function groupBy(list: readonly PublishedOverride[], by: (o: PublishedOverride) => string) {
  const groups = new Map<string, PublishedOverride[]>();
  for (const override of list) {
    const group = groups.get(by(override));
    if (group) group.push(override);
    else groups.set(by(override), [override]);
  }
  return groups;
}

/** Every set of the tenant (tenant, key default, each key's own) with the list applied. */
function applyEverywhere(tenant: CompiledTenant, list: readonly PublishedOverride[], onlySubject: boolean) {
  const keys: CompiledTenant["keys"] = {};
  for (const [name, key] of Object.entries(tenant.keys))
    keys[name] = key.limits ? { ...key, limits: applyToSet(key.limits, list, onlySubject) } : key;
  return {
    ...tenant,
    limits: applyToSet(tenant.limits, list, onlySubject),
    keyDefault: applyToSet(tenant.keyDefault, list, onlySubject),
    keys,
  };
}

/** One tenant with its (active) overrides applied: what applyOverrides does to each tenant. */
export function applyTenantOverrides(
  tenant: CompiledTenant,
  list: readonly PublishedOverride[],
): CompiledTenant {
  const wide = list.filter((o) => o.key === null && o.subject === null);
  let result: CompiledTenant = wide.length > 0 ? applyEverywhere(tenant, wide, false) : { ...tenant };
  // a key's override gives the key a set of its own (from the key default when it had none)
  for (const [keyName, group] of groupBy(
    list.filter((o) => o.key !== null && o.subject === null),
    (o) => o.key ?? "",
  )) {
    const key = result.keys[keyName];
    if (!key) continue;
    const limits = applyToSet(key.limits ?? result.keyDefault, group);
    result = { ...result, keys: { ...result.keys, [keyName]: { ...key, limits } } };
  }
  const bySubject = groupBy(
    list.filter((o) => o.subject !== null),
    (o) => o.subject ?? "",
  );
  if (bySubject.size === 0) return result;
  const variants = new Map<string, CompiledTenant>();
  for (const [subject, group] of bySubject) variants.set(subject, applyEverywhere(result, group, true));
  return { ...result, subjectOverrides: variants };
}

/** The snapshot with these (active) overrides applied; the same object when there are none. */
export function applyOverrides(snapshot: Snapshot, active: readonly PublishedOverride[]): Snapshot {
  if (active.length === 0) return snapshot;
  const tenants = { ...snapshot.tenants };
  for (const [slug, list] of groupBy(active, (o) => o.tenant)) {
    const tenant = tenants[slug];
    if (tenant) tenants[slug] = applyTenantOverrides(tenant, list);
  }
  return { ...snapshot, tenants };
}
