import "server-only";
import type { CompiledLimit, CompiledTenant, Snapshot } from "@/lib/config/compile";
import { degradedBody } from "@/lib/enforce/decision-body";
import { identityFor } from "@/lib/enforce/limit-specs";
import { DecisionTemplate } from "@/lib/enforce/render/decision-template";
import { shapeOverrides, type ShapeOverrides } from "@/lib/enforce/override-shape";
import { renderBody, type RenderedDecision } from "@/lib/enforce/render/rendered";
import { asciiJson } from "@/lib/shared/ascii-json";
import { flatText } from "@/lib/enforce/render/flat-text";
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
// own part (checkKeys): the Redis key of the counters its key and subject own. Cleared on
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

/** The key's texts a check of it needs, made once per key record (keyTextOf). */
interface KeyText {
  /** its name as JSON, for the answer */
  json: string;
  /** `k.<id>` */
  owner: string;
  /** `k.<encoded id>`, for a sliding log's key */
  encoded: string;
  /** its limit set's tag (shapeTagOf), on first need */
  tag?: string;
  /** the Redis key of its counters (its tenant's prefix and `encoded`), on first need */
  ownerKey?: string;
}

const NO_KEY: KeyText = { json: "null", owner: "", encoded: "" };
// keyed by the config's own key records: as many as the config has keys, gone with the index
const keyTexts = new WeakMap<KeyRecord, KeyText>();

function keyTextOf(key: KeyRecord | null): KeyText {
  if (key === null) return NO_KEY;
  let text = keyTexts.get(key);
  if (text === undefined) {
    const id = key.id ?? "";
    text = { json: asciiJson(key.name), owner: `k.${id}`, encoded: `k.${encodeKeyPart(id)}` };
    keyTexts.set(key, text);
  }
  return text;
}

/** The answer's JSON text of a key name (`null` without a key). */
export const keyJsonOf = (key: KeyRecord | null): string => (key === null ? "null" : keyTextOf(key).json);

/**
 * A check's Redis keys: the shape's, with its key's and subject's counters in their slots
 * (the shape's own array when no slot is filled). Built per check: the pairs of shape and
 * key under real traffic outnumber any cache of them (issue 20). `base`, the keys with the
 * key's counters already in (a whole-check cache entry's, hot-checks.ts), leaves only the
 * subject's to fill.
 */
export function checkKeys(
  shape: CheckShape,
  key: KeyRecord | null,
  subject: string | null,
  base: string[] | null = null,
): string[] {
  const { keySlots, subjectSlots } = shape;
  const subjects = subject !== null && subjectSlots.length > 0;
  const keyed = base === null && keySlots.length > 0 && key !== null && key.id !== shape.resolved.keyId;
  if (!subjects && !keyed) return base ?? shape.keys;
  const keys = (base ?? shape.keys).slice();
  const { limits } = shape.resolved.matched;
  const tenantId = shape.resolved.tenant.id;
  if (keyed) {
    const text = keyTextOf(key);
    // a key belongs to one tenant: its owner key is made once, flat (written per check)
    if (text.ownerKey === undefined) text.ownerKey = flatText(`${ownerKeyPrefix(tenantId)}${text.encoded}`);
    for (const i of keySlots)
      keys[i] = slotKey(shape, limits[i] as CompiledLimit, text.ownerKey, text.encoded);
  }
  if (subjects) {
    const encoded = `s.${encodeKeyPart(subject)}`;
    const ownerKey = `${ownerKeyPrefix(tenantId)}${encoded}`;
    for (const i of subjectSlots) keys[i] = slotKey(shape, limits[i] as CompiledLimit, ownerKey, encoded);
  }
  return keys;
}

/** limitKey(spec) from the owner's parts: every limit but a sliding log shares the owner's key. */
function slotKey(shape: CheckShape, limit: CompiledLimit, ownerKey: string, encoded: string): string {
  if (limit.rule.algorithm !== "sliding_log") return ownerKey;
  return `${limitKeyPrefix(shape.resolved.tenant.id, limit.id)}${encoded}${logSuffix(limit)}`;
}

/** A check's own part of its shape, where more than its keys is needed (local limits). */
export interface CheckParts {
  keys: string[];
  specs: LimitSpec[];
}

export function checkParts(shape: CheckShape, key: KeyRecord | null, subject: string | null): CheckParts {
  return { keys: checkKeys(shape, key, subject), specs: checkSpecs(shape, key, subject) };
}

/** A check's limiter specs (counter identities and owners): local limits and tests need them. */
export function checkSpecs(shape: CheckShape, key: KeyRecord | null, subject: string | null): LimitSpec[] {
  const specs = shape.specs.slice();
  const { limits } = shape.resolved.matched;
  const respec = (slots: readonly number[], owner: string): void => {
    for (const i of slots) {
      const identity = identityFor(limits[i] as CompiledLimit, owner);
      specs[i] = { ...(specs[i] as LimitSpec), identity, owner };
    }
  };
  if (key !== null && key.id !== shape.resolved.keyId) respec(shape.keySlots, keyTextOf(key).owner);
  if (subject !== null) respec(shape.subjectSlots, `s.${subject}`);
  return specs;
}

/**
 * The deny cache's signature of a check: the same counters (the subject only where one
 * counts), or null with a shadow limit. Built only when the deny cache is asked.
 */
export function denySignature(
  shape: CheckShape,
  key: KeyRecord | null,
  subject: string | null,
): string | null {
  if (shape.hasShadow) return null;
  const { resolved } = shape;
  const head = `${resolved.tenant.id}\n${key?.id ?? ""}\n${resolved.route ?? ""}\n`;
  return subject === null || shape.subjectSlots.length === 0 ? head : head + subject;
}

/** The shape's resolution as this check's key sees it (degraded and empty answers). */
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

/**
 * Which limit set a check's key has, within its slot (shape-table.ts): none ("-"), its own
 * (`k<name>`), or the tenant's key default ("*"). Made once per key record.
 */
export function shapeTagOf(target: Target): string {
  const { key } = target;
  if (key === null) return "-";
  const text = keyTextOf(key);
  return (text.tag ??= tagOf(target.tenant, key));
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
