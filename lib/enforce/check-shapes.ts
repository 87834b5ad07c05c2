import "server-only";
import type { CompiledLimit, Snapshot } from "@/lib/config/compile";
import { degradedBody } from "@/lib/enforce/decision-body";
import { identityFor } from "@/lib/enforce/limit-specs";
import { DecisionTemplate } from "@/lib/enforce/render/decision-template";
import { shapeOverrides, type ShapeOverrides } from "@/lib/enforce/override-shape";
import { renderBody, type RenderedDecision } from "@/lib/enforce/render/rendered";
import type { KeyRecord } from "@/lib/enforce/config-index";
import { resolvedOf, type Resolved, type Target } from "@/lib/enforce/resolve";
import { prepareCheck } from "@/lib/limiter/evaluate-many";
import { encodeKeyPart, limitKeyPrefix, ownerKeyPrefix } from "@/lib/limiter/keys";
import type { LimitArgs, LimitSpec } from "@/lib/limiter/types";

// What a check resolves to under the current config version, apart from its key's and
// subject's own counters: the limits its tenant, limit set and resolved route patterns
// meet, their counters' Redis keys and script arguments (validated once), and the answer's
// text (decision-template.ts). Real traffic sees subjects and route ids by the hundred
// thousand and keys by the thousand (issue 20): keyed by the limit set (the keys without
// limits of their own share the tenant's key default) and the resolved patterns, never the
// raw route, the key or the subject, a shape serves them all, and a check costs only its
// own part (checkParts): the Redis key of the counters its key and subject own. Cleared on
// every new version; bounded in entries and in bytes, the oldest going first.

export interface CheckShape {
  /** the limits, tenant and route; its key is the one it was built for (any of its set) */
  resolved: Resolved;
  /** per limit; a key's or subject's limit slot holds the builder's, replaced per check */
  keys: string[];
  specs: LimitSpec[];
  rules: LimitArgs[];
  /** the indexes of the limits counted per key, and per subject */
  keySlots: number[];
  subjectSlots: number[];
  /** with a shadow limit the deny cache stays out */
  hasShadow: boolean;
  template: DecisionTemplate;
  /** the builder's answer when Redis is not reached in time, rendered on first need */
  degraded: RenderedDecision | null;
  /** an estimate of the memory it holds */
  bytes: number;
  /** temporary overrides that meet it (override-shape.ts); null for nearly every shape */
  overrides: ShapeOverrides | null;
}

/** A check's own part of its shape. */
export interface CheckParts {
  keys: string[];
  specs: LimitSpec[];
  /** the deny cache's signature: the same counters (subject only when one counts), or null */
  signature: string | null;
  template: DecisionTemplate;
}

/** The shape's resolution as this check's key sees it. */
export function resolvedFor(shape: CheckShape, key: KeyRecord | null): Resolved {
  const { resolved } = shape;
  const keyName = key?.name ?? null;
  if (keyName === resolved.keyName) return resolved;
  return { ...resolved, keyName, keyId: key?.id ?? null, keyExpiresAt: key?.expiresAt ?? null };
}

/** The degraded answer (every limit by its onStoreFailure); the builder's is rendered once. */
export function degradedAnswer(
  shape: CheckShape,
  key: KeyRecord | null,
  configVersion: number,
): RenderedDecision {
  const resolved = resolvedFor(shape, key);
  if (resolved !== shape.resolved) return renderBody(degradedBody(resolved, configVersion));
  return (shape.degraded ??= renderBody(degradedBody(resolved, configVersion)));
}

/** Which limit set a check's key has: none, its own, or the tenant's key default ("*"). */
function limitSetTag(target: Target): string {
  const { key } = target;
  if (key === null) return "-";
  // without an id, `by: key` limits have no owner and are left out: a set of its own
  if (key.id === null) return `n${key.name}`;
  return target.tenant.keys[key.name]?.limits ? `k${key.name}` : "*";
}

/** The cache key of a target: tenant, limit set and both resolved patterns (none holds a newline). */
export function shapeKeyOf(target: Target, hasSubject: boolean): string {
  const { routes } = target;
  return `${target.tenant.slug}\n${limitSetTag(target)}\n${routes.global ?? ""}\n${routes.tenant ?? ""}\n${hasSubject ? "s" : "-"}`;
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
  const template = new DecisionTemplate(limits, who, version);
  // object headers and arrays, plus the text (two bytes a character at worst)
  let bytes = 1_024 + 2 * template.chars;
  for (const key of keys) bytes += 64 + 2 * key.length;
  return {
    resolved,
    keys,
    specs,
    rules,
    keySlots,
    subjectSlots,
    hasShadow,
    template,
    degraded: null,
    bytes,
    overrides,
  };
}

/** Puts one owner's counters (`k.<key id>`, `s.<subject>`) in the given slots. */
function fill(
  shape: CheckShape,
  slots: readonly number[],
  kind: "k" | "s",
  part: string,
  keys: string[],
  specs: LimitSpec[],
): void {
  const owner = `${kind}.${part}`;
  // every limit of the owner but a sliding log shares the owner's one key; the part is
  // encoded alone ("k." and "s." need none): the check's own flat string, not a new one
  const tenantId = shape.resolved.tenant.id;
  const encoded = `${kind}.${encodeKeyPart(part)}`;
  const ownerKey = `${ownerKeyPrefix(tenantId)}${encoded}`;
  for (const i of slots) {
    const limit = shape.resolved.matched.limits[i] as CompiledLimit;
    const spec: LimitSpec = { ...(specs[i] as LimitSpec), identity: identityFor(limit, owner), owner };
    specs[i] = spec;
    // limitKey(spec), with the owner encoded once and the route's part memoized per limit
    keys[i] =
      spec.rule.algorithm === "sliding_log"
        ? `${limitKeyPrefix(tenantId, spec.id)}${encoded}${logSuffix(limit)}`
        : ownerKey;
  }
}

/** What follows the owner in a sliding log's key: its route (encoded) and ":l". */
const logSuffixes = new WeakMap<CompiledLimit, string>();
function logSuffix(limit: CompiledLimit): string {
  let suffix = logSuffixes.get(limit);
  if (suffix === undefined) {
    suffix = limit.route === null ? ":l" : `${encodeKeyPart(` ${limit.route}`)}:l`;
    logSuffixes.set(limit, suffix);
  }
  return suffix;
}

/**
 * The key's part of a check (no subject filled in yet): the shape's keys and specs with its
 * key's counters, the answer naming the key, and the deny signature up to the subject.
 * Kept per hot check (hot-checks.ts), so a new subject costs only subjectParts.
 */
export function keyParts(shape: CheckShape, key: KeyRecord | null): CheckParts {
  const { resolved, keySlots } = shape;
  const keyId = key?.id ?? null;
  const template = shape.template.forKey(key?.name ?? null);
  const signature = shape.hasShadow
    ? null
    : `${resolved.tenant.id}\n${keyId ?? ""}\n${resolved.route ?? ""}\n`;
  if (keySlots.length === 0 || keyId === resolved.keyId)
    return { keys: shape.keys, specs: shape.specs, signature, template };
  const keys = shape.keys.slice();
  const specs = shape.specs.slice();
  fill(shape, keySlots, "k", String(keyId), keys, specs);
  return { keys, specs, signature, template };
}

/** A check's parts from its key's: the subject's counters where a limit counts per subject. */
export function subjectParts(shape: CheckShape, base: CheckParts, subject: string | null): CheckParts {
  if (subject === null || shape.subjectSlots.length === 0) return base;
  const keys = base.keys.slice();
  const specs = base.specs.slice();
  fill(shape, shape.subjectSlots, "s", subject, keys, specs);
  const signature = base.signature === null ? null : base.signature + subject;
  return { keys, specs, signature, template: base.template };
}

/** A check's own part: the shape's keys and specs with its key's and subject's counters. */
export function checkParts(shape: CheckShape, key: KeyRecord | null, subject: string | null): CheckParts {
  return subjectParts(shape, keyParts(shape, key), subject);
}
