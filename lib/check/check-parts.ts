import "server-only";
import type { CompiledLimit, CompiledTenant } from "@/lib/check/published/snapshot-types";
import type { CheckShape } from "@/lib/check/shape-types";
import type { KeyRecord } from "@/lib/check/config-index";
import { identityFor } from "@/lib/check/limit-specs";
import { flatText } from "@/lib/check/render/flat-text";
import { encodeKeyPart, limitKeyPrefix, ownerKeyPrefix } from "@/lib/check/limiter/keys";
import type { LimitSpec } from "@/lib/check/limiter/types";
import { asciiJson } from "@/lib/shared/ascii-json";

// A check's own part of its shape (check-shapes.ts): the Redis keys of the counters its key
// and subject own, its limiter specs where local limits need them, the deny cache's
// signature and its key's name in the answer. Built per check from texts made once per key
// record; nothing here is kept per check. A denial by a concurrency limit holds only until a
// lease is released, so the deny cache stays out of checks that take leases.

/** The key's texts a check of it needs, made once per key record (keyTextOf). */
interface KeyText {
  /** its name as JSON, for the answer */
  json: string;
  /** `k.<id>` */
  owner: string;
  /** `k.<encoded id>`, for a sliding log's key */
  encoded: string;
  /** its limit set's tag (shapeTagOf), on first need, and the tenant object it was read from */
  tag?: string;
  tagTenant?: CompiledTenant;
  /** the Redis key of its counters (its tenant's prefix and `encoded`), on first need */
  ownerKey?: string;
}

const NO_KEY: KeyText = { json: "null", owner: "", encoded: "" };
// keyed by the config's own key records: as many as the config has keys, gone with the index
const keyTexts = new WeakMap<KeyRecord, KeyText>();

export function keyTextOf(key: KeyRecord | null): KeyText {
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
 * key under real traffic outnumber any cache of them. `base`, the keys with the
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
  // the key whose counters go in the key slots, or null when the shape's own stay
  const keyed = base === null && keySlots.length > 0 && fillsKeySlots(shape, key) ? key : null;
  if (!subjects && keyed === null) return base ?? shape.keys;
  const keys = (base ?? shape.keys).slice();
  const { limits } = shape.resolved.matched;
  const tenantId = shape.resolved.tenant.id;
  if (keyed !== null) {
    const text = keyTextOf(keyed);
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

/** Whether the check's key is not the one the shape was built for: its slots hold another's. */
function fillsKeySlots(shape: CheckShape, key: KeyRecord | null): key is KeyRecord {
  return key !== null && key.id !== shape.resolved.keyId;
}

/** limitKey(spec) from the owner's parts: every limit but a sorted set (a sliding log, a
 * concurrency limit's leases) shares the owner's key. */
function slotKey(shape: CheckShape, limit: CompiledLimit, ownerKey: string, encoded: string): string {
  const { algorithm } = limit.rule;
  if (algorithm !== "sliding_log" && algorithm !== "concurrency") return ownerKey;
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
  if (fillsKeySlots(shape, key)) respec(shape.keySlots, keyTextOf(key).owner);
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
  // a denial may start a penalty's block (a write): such shapes go to Redis, or to the blocks
  if (shape.hasShadow || shape.resolved.matched.hasLease || shape.penalties !== null) return null;
  const { resolved } = shape;
  const head = `${resolved.tenant.id}\n${key?.id ?? ""}\n${resolved.route ?? ""}\n`;
  return subject === null || shape.subjectSlots.length === 0 ? head : head + subject;
}

/** What follows the owner in a sliding log's key: its route (encoded) and ":l" (":c" for a
 * concurrency limit's lease set). */
const logSuffixes = new WeakMap<CompiledLimit, string>();
function logSuffix(limit: CompiledLimit): string {
  let suffix = logSuffixes.get(limit);
  if (suffix === undefined) {
    const tag = limit.rule.algorithm === "concurrency" ? ":c" : ":l";
    suffix = limit.route === null ? tag : `${encodeKeyPart(` ${limit.route}`)}${tag}`;
    logSuffixes.set(limit, suffix);
  }
  return suffix;
}
