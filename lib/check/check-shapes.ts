import "server-only";
import type { CompiledLimit, CompiledTenant, Snapshot } from "@/lib/check/published/snapshot-types";
import { degradedBody } from "@/lib/check/decision-body";
import { DecisionTemplate } from "@/lib/check/render/decision-template";
import { shapeOverrides } from "@/lib/check/override-shape";
import type { CheckShape } from "@/lib/check/shape-types";
import { renderBody, type RenderedDecision } from "@/lib/check/render/rendered";
import { keyTextOf } from "@/lib/check/check-parts";
import type { KeyRecord } from "@/lib/check/config-index";
import { resolvedOf, type Resolved, type Target } from "@/lib/check/resolve";
import { prepareCheck } from "@/lib/check/limiter/evaluate-many";
import type { DegradedCause } from "@/lib/check/types";
import { flavourOf } from "@/lib/check/headers";
import { shapePenalties } from "@/lib/check/penalty-blocks";
import { calendarUntilOf } from "@/lib/check/calendar-rules";

// What a check resolves to under the current config version, apart from its key's and
// subject's own counters: the limits its tenant, limit set and resolved route patterns
// meet, their counters' Redis keys and script arguments (validated once), and the answer's
// text (decision-template.ts). Real traffic sees subjects and route ids by the hundred
// thousand and keys by the thousand: keyed by the limit set (the keys without
// limits of their own share the tenant's key default) and the resolved patterns, never the
// raw route, the key or the subject, a shape serves them all, and a check costs only its
// own part (check-parts.ts): the Redis keys of the counters its key and subject own. Found in
// shape-table.ts; dropped when its tenant changes, kept across other tenants' changes (its
// answers then name the version they are decided under, not the one it was built in).

/** The shape's resolution as this check's key sees it (degraded and empty answers). */
export function resolvedFor(shape: CheckShape, key: KeyRecord | null): Resolved {
  const { resolved } = shape;
  const keyName = key?.name ?? null;
  if (keyName === resolved.keyName) return resolved;
  return { ...resolved, keyName, keyId: key?.id ?? null, keyExpiresAt: key?.expiresAt ?? null };
}

/** The degraded answer (every limit by its onStoreFailure); the builder's is rendered once per cause. */
export function degradedAnswer(
  shape: CheckShape,
  key: KeyRecord | null,
  configVersion: number,
  cause: DegradedCause,
): RenderedDecision {
  const resolved = resolvedFor(shape, key);
  if (resolved !== shape.resolved)
    return renderBody(degradedBody(resolved, configVersion, cause), flavourOf(resolved.tenant));
  if (shape.degraded?.version !== configVersion) shape.degraded = { version: configVersion, byCause: {} };
  return (shape.degraded.byCause[cause] ??= renderBody(
    degradedBody(resolved, configVersion, cause),
    flavourOf(resolved.tenant),
  ));
}

/**
 * Which limit set a check's key has, within its slot (shape-table.ts): none ("-"), its own
 * (`k<name>`), or the tenant's key default ("*"). Made once per key record and tenant
 * object: a tenant's change can give a key limits of its own, or take them, while its key
 * record stays the same.
 */
export function shapeTagOf(target: Target): string {
  const { key, tenant } = target;
  if (key === null) return "-";
  const text = keyTextOf(key);
  if (text.tag === undefined || text.tagTenant !== tenant) {
    text.tag = tagOf(tenant, key);
    text.tagTenant = tenant;
  }
  return text.tag;
}

function tagOf(tenant: CompiledTenant, key: KeyRecord): string {
  // without an id, `by: key` limits have no owner and are left out: a set of its own
  if (key.id === null) return `n${key.name}`;
  return tenant.keys[key.name]?.limits ? `k${key.name}` : "*";
}

/** Builds a shape; throws RangeError for rules the limiter refuses. */
export function buildShape(
  target: Target,
  snapshot: Snapshot,
  hasSubject: boolean,
  version: number,
): CheckShape {
  // "" stands for every subject: subject limits get their slot, filled per check
  const resolved = resolvedOf(target, snapshot, hasSubject ? "" : null);
  const { limits, specs, hasShadow } = resolved.matched;
  const who = { tenant: resolved.tenant.slug, key: resolved.keyName, route: resolved.route };
  const overrides = shapeOverrides(
    target.tenant,
    limits,
    hasSubject && limits.some((limit) => limit.by === "subject"),
    who,
    version,
  );
  // a blocked shape never reaches the limiter (its limit of 0 is not one the limiter takes)
  const { keys, rules } =
    overrides?.block != null
      ? { keys: [], rules: [] }
      : prepareCheck({ limits: specs, request: { cost: 1, dryRun: false } });
  const keySlots: number[] = [];
  const subjectSlots: number[] = [];
  for (let i = 0; i < limits.length; i++) {
    const by = (limits[i] as CompiledLimit).by;
    if (by === "key") keySlots.push(i);
    else if (by === "subject") subjectSlots.push(i);
  }
  const template = new DecisionTemplate(limits, who, version, flavourOf(target.tenant));
  // object headers and arrays, plus the text (two bytes a character at worst)
  let bytes = 1_024 + 2 * template.chars;
  for (const key of keys) bytes += 64 + 2 * key.length;
  return {
    resolved,
    keys,
    specs,
    rules,
    calendarUntil: rules.length === 0 ? Infinity : calendarUntilOf(specs),
    keySlots,
    subjectSlots,
    hasShadow,
    template,
    degraded: null,
    bytes,
    overrides,
    penalties: shapePenalties(resolved.tenant.id, limits, rules, hasShadow),
  };
}
