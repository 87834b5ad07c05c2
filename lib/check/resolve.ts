import "server-only";
import { sha256Hex } from "@/lib/shared/secrets";
import {
  effectiveLimitsOf,
  resolveRoutes,
  shownRoute,
  type RouteResolution,
} from "@/lib/check/published/effective-limits";
import { type CompiledTenant, type Snapshot } from "@/lib/check/published/snapshot-types";
import type { ConfigIndex, KeyRecord } from "@/lib/check/config-index";
import { keyNameId } from "@/lib/check/config-index";
import { matchLimits, type MatchedLimits } from "@/lib/check/limit-specs";
import { mayCheck, type Caller } from "@/lib/check/service-auth";
import type { TenantMark, TenantMarks } from "@/lib/check/tenant-marks";
import type { TtlLru } from "@/lib/check/ttl-lru";
import type { CheckInput, DecisionReason } from "@/lib/check/types";

// From a validated check to what it is about, using only the in-memory config: the tenant,
// the key, the resolved route and the limits that apply; or a decision that needs no
// counter at all (unknown or revoked key, suspended tenant...), or "forbidden" when the
// caller's token is limited to other tenants and named the tenant itself. Another tenant's
// API key answers exactly as an unknown key: a 403 naming its tenant would tell the caller
// that the key is valid and whose it is. Two steps: the target (tenant, key, route
// patterns) on every check, the limits once per shape (check-shapes.ts), for every subject.

export interface Early {
  kind: "early";
  reason: DecisionReason;
  tenant: CompiledTenant | null;
  tenantSlug: string | null;
  keyName: string | null;
  keyId: string | null;
  route: string | null;
  /** answered from the negative cache */
  cached: boolean;
}

export interface Resolved {
  kind: "limits";
  tenant: CompiledTenant;
  keyName: string | null;
  keyId: string | null;
  route: string | null;
  /** when the key expires (ms since the epoch); null: no key or no expiry */
  keyExpiresAt: number | null;
  matched: MatchedLimits;
}

export type Resolution = Early | Resolved | { kind: "forbidden"; tenantSlug: string };

const early = (
  reason: DecisionReason,
  tenantSlug: string | null,
  tenant: CompiledTenant | null,
  key: KeyRecord | null,
  route: string | null,
  cached = false,
): Early => ({
  kind: "early",
  reason,
  tenant,
  tenantSlug,
  keyName: key?.name ?? null,
  keyId: key?.id ?? null,
  route,
  cached,
});

export function keyProblem(key: KeyRecord, nowMs: number): DecisionReason | null {
  if (key.revoked) return "revoked_key";
  if (key.expiresAt !== null && key.expiresAt <= nowMs)
    // a rotated-out secret past its grace is revoked, not expired (docs/api.md#key-rotation)
    return key.retiredAt !== undefined && key.retiredAt <= nowMs ? "revoked_key" : "expired_key";
  return null;
}

/** A raw apiKey value found to be a key: its record, while the key's tenant is unchanged. */
export interface KnownKey {
  record: KeyRecord;
  mark: TenantMark;
}

/**
 * Raw apiKey values seen: both kept so a repeat skips the SHA-256. A known value stands
 * until its key's tenant changes (a change to the key touches its tenant: config-state.ts);
 * the negative cache is emptied on every change (check-service.ts: a value not found has no
 * tenant, and any change may have added it).
 */
export interface KeyCaches {
  /** the negative cache: values known not to be a key */
  unknown: TtlLru<true>;
  known: TtlLru<KnownKey>;
  marks: TenantMarks;
}

/** The answer for an API key that is not one, or not one this caller may check. */
export const unknownKey = (): Early => early("unknown_key", null, null, null, null);

/** What a caller not allowed on `slug` gets: as for an unknown key when it sent an API key. */
export function refused(input: CheckInput, slug: string): Early | { kind: "forbidden"; tenantSlug: string } {
  return input.apiKey !== null ? unknownKey() : { kind: "forbidden", tenantSlug: slug };
}

/** Who and where a check is about, before its limits: everything but the subject matters. */
export interface Target {
  kind: "target";
  tenant: CompiledTenant;
  key: KeyRecord | null;
  routes: RouteResolution;
  /** the pattern the answer names */
  route: string | null;
}

export type TargetResolution = Early | Target | { kind: "forbidden"; tenantSlug: string };

/** The tenant, key and route of a check, or the early answer that needs no counter. */
export function resolveTarget(
  input: CheckInput,
  caller: Caller,
  config: ConfigIndex,
  caches: KeyCaches,
): TargetResolution {
  let key: KeyRecord | null = null;
  let slug: string;
  if (input.apiKey !== null) {
    const known = caches.known.get(input.apiKey);
    if (known !== undefined && known.mark.current) key = known.record;
    else {
      if (caches.unknown.get(input.apiKey)) return early("unknown_key", null, null, null, null, true);
      key = config.keysByHash.get(sha256Hex(input.apiKey)) ?? null;
      if (!key) {
        caches.unknown.set(input.apiKey, true);
        return early("unknown_key", null, null, null, null);
      }
      caches.known.set(input.apiKey, { record: key, mark: caches.marks.of(key.tenant) });
    }
    slug = key.tenant;
  } else {
    slug = input.tenant ?? "";
  }
  if (!mayCheck(caller, slug)) return refused(input, slug);
  const tenant = config.snapshot.tenants[slug];
  if (!tenant) return early("unknown_tenant", slug, null, key, null);
  const routes = resolveRoutes(config.snapshot, slug, input.route);
  const route = shownRoute(routes);
  if (input.apiKey === null && input.key !== null) {
    key = config.keysByName.get(keyNameId(slug, input.key)) ?? null;
    if (!key)
      return early(
        "unknown_key",
        slug,
        tenant,
        { tenant: slug, name: input.key, id: null, expiresAt: null, revoked: false },
        route,
      );
  }
  const problem = key ? keyProblem(key, Date.now()) : null;
  if (problem) return early(problem, slug, tenant, key, route);
  if (tenant.status !== "active") return early("suspended_tenant", slug, tenant, key, route);
  return { kind: "target", tenant, key, routes, route };
}

/** The limits a target meets for this subject (or none: subject limits are then left out). */
export function resolvedOf(target: Target, snapshot: Snapshot, subject: string | null): Resolved {
  const { tenant, key } = target;
  // the target's tenant object, not the snapshot's: a subject override's variant is one
  const candidates = effectiveLimitsOf(tenant, key?.name ?? null, target.routes);
  const matched = matchLimits(candidates, { tenantId: tenant.id, keyId: key?.id ?? null, subject });
  return {
    kind: "limits",
    tenant,
    keyName: key?.name ?? null,
    keyId: key?.id ?? null,
    route: target.route,
    keyExpiresAt: key?.expiresAt ?? null,
    matched,
  };
}
