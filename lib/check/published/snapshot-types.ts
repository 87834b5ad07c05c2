// The compiled configuration that enforcement servers hold in memory and that is
// published to Redis as JSON. Shaped for the check's hot path: a check looks up its
// tenant by slug (or id), its key set by name (or id), resolves its route, and reads two
// short arrays; nothing is merged or inherited at check time.

import type { HeaderFlavour, LimitFieldName, LimitLevel, TenantStatus } from "@/lib/shared/config-terms";
import type { ServiceLimit } from "@/lib/check/published/service-limit-schema";
import type { LimitBy, LimitRule } from "@/lib/shared/limit-types";
import type { PublishedLists } from "@/lib/check/lists/list-types";
import type { SubnetPrefixes } from "@/lib/check/lists/subnet-subject";

export const SNAPSHOT_FORMAT = 1;

/** One step of how a limit got its values: "plan free set by, algorithm, limit, window". */
export interface ProvenanceStep {
  level: LimitLevel;
  /** "plan free", "route POST /v1/search", "tenant acme", "tenant acme route GET /x", "key backend" */
  source: string;
  fields: LimitFieldName[];
}

export interface CompiledLimit {
  /**
   * Stable identity for counter keys: where the limit was declared as a base, plus its
   * name; never its values, so raising a limit keeps its counters. Overrides keep the id
   * of the limit they override. "p:<plan>:<name>", "r:global:<pattern>:<name>",
   * "r:tenant:<pattern>:<name>", "t:<name>", "k:<keyId>:<name>" (tenant-scoped ids rely on
   * the counter key's tenant part).
   */
  id: string;
  name: string;
  /** where its effective values came from last */
  level: LimitLevel;
  by: LimitBy;
  /** the route pattern it applies to (counted per route then), or null for every check */
  route: string | null;
  rule: LimitRule;
  /** consistency: local (decided in memory, synced every syncEveryMs); absent: exact */
  local?: { syncEveryMs: number };
  provenance: ProvenanceStep[];
  /** set in memory by the config index while a temporary override applies (docs/overrides.md) */
  override?: AppliedOverride;
}

/** The override a limit is under: decisions show it as `limits[].override`. */
export interface AppliedOverride {
  id: string;
  /** ISO 8601 */
  endsAt: string;
  /** limit 0: every check is denied without counting (no counter is touched) */
  blocked: boolean;
}

/** The limits of one situation (tenant without key, key...), split by route. */
export interface LimitSet {
  /** limits without a route: they apply to every check */
  unrouted: CompiledLimit[];
  /** route pattern -> the limits that apply only when the check resolves to it */
  routed: Record<string, CompiledLimit[]>;
}

export interface CompiledKey {
  id: string;
  name: string;
  /** null: the key declares no limits of its own and the tenant's keyDefault applies */
  limits: LimitSet | null;
}

export interface CompiledTenant {
  id: string;
  slug: string;
  name: string;
  plan: string;
  status: TenantStatus;
  /** the tenant's own route patterns; matched together with Snapshot.routes */
  routes: string[];
  /** checks without a key: `by: key` limits are left out (there is no key to count) */
  limits: LimitSet;
  /** checks with a key that declares no limits of its own */
  keyDefault: LimitSet;
  /** by key name: every key the IdMap knows, plus those the document names */
  keys: Record<string, CompiledKey>;
  /** key id -> key name */
  keyNameById: Record<string, string>;
  /**
   * The plan's service limit: checks a second one check front answers for this tenant,
   * burst filled in; null: none. Snapshots compiled before it existed lack the field, so
   * readers take it with `?? null`.
   */
  service: ServiceLimit | null;
  /**
   * The RateLimit header flavour of its check answers (lib/check/headers.ts); absent:
   * draft-11, the default (and what snapshots compiled before the field existed mean).
   */
  headers?: HeaderFlavour;
  /** its allow and deny lists (lib/check/lists/); absent: none */
  lists?: PublishedLists;
  /** IP subjects are counted by these networks (subnet-subject.ts); absent: by address */
  ipSubjects?: SubnetPrefixes;
  /**
   * In memory only, set by the config index while subject overrides apply: subject -> this
   * tenant with that subject's overrides applied (its `by: subject` limits changed).
   */
  subjectOverrides?: ReadonlyMap<string, CompiledTenant>;
}

export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  /** the configVersion it was compiled from */
  version: number;
  /** global route patterns */
  routes: string[];
  /** by slug */
  tenants: Record<string, CompiledTenant>;
  /** tenant id -> slug */
  tenantSlugById: Record<string, string>;
  /** the operator's global allow and deny lists, met by every tenant's checks; absent: none */
  lists?: PublishedLists;
}
