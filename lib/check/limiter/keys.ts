import "server-only";
import { createHash } from "node:crypto";
import type { LimitSpec } from "@/lib/check/limiter/types";
import { codecFor } from "@/lib/check/limiter/algorithms";

// Key layout. Every counter of one owner (the tenant, a key, a subject) lives in ONE string
// key, {t:<tenant>}:o:<owner>, as entries of a few integers each (lua/common.lua): a check
// then reads and writes one key per owner instead of one per limit, and an idle owner costs
// one key. An entry is named by 8 characters of a hash of the limit id, its route (a
// per-route counter) and the algorithm tag, so another algorithm's state is never read
// after a limit's algorithm changes (that limit starts fresh). The sliding log keeps a
// sorted set of its own: {t:<tenant>}:<limit id>:<identity>:l.
// - every key of one tenant carries the Cluster hash tag {t:<tenant>}, so one script call
//   may touch all limits of a check on Redis Cluster too;
// - each part is percent-encoded, so no user text (subject, names) can add braces or colons
//   and escape its place in the key, nor glob characters to a SCAN pattern built from it.
// A deployment-wide prefix (REDIS_PREFIX) is the client's `keyPrefix`, applied by ioredis
// to script keys as well; it holds no braces, so the hash tag stays the key's first {...}.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const GLOB_AND_MARKS = /[!'()*]/g;

// Encoded parts are kept: the same tenants, limits and identities come back on every check.
const ENCODED_MAX = 20_000;
const encodedParts = new Map<string, string>();

// What encoding leaves as it is: most ids, addresses and user names, so most subjects.
const UNRESERVED = /^[A-Za-z0-9_.~-]*$/;

/** Percent-encodes all but A-Z a-z 0-9 - _ . ~ (so no brace, colon, % or glob character). */
export function encodeKeyPart(text: string): string {
  // checked first: new subjects arrive by the thousand and would only churn the memo
  if (UNRESERVED.test(text)) return text;
  let encoded = encodedParts.get(text);
  if (encoded === undefined) {
    encoded = encode(text);
    // a flood of new identities only clears the memo, it never grows past its bound
    if (encodedParts.size >= ENCODED_MAX) encodedParts.clear();
    encodedParts.set(text, encoded);
  }
  return encoded;
}

function encode(text: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(text);
  } catch {
    // a lone UTF-16 surrogate (possible in JSON input): encode U+FFFD in its place
    encoded = encodeURIComponent(text.replace(LONE_SURROGATE, "\uFFFD"));
  }
  return encoded.replace(GLOB_AND_MARKS, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function tenantTag(tenantId: string): string {
  return `{t:${encodeKeyPart(tenantId)}}`;
}

const limitPrefixes = new Map<string, Map<string, string>>();

/** Prefix shared by every state key of one limit of a tenant (for resets and inspection). */
export function limitKeyPrefix(tenantId: string, limitId: string): string {
  // memoized per tenant and limit (a sliding log per subject asks on every check)
  let ofTenant = limitPrefixes.get(tenantId);
  if (ofTenant === undefined) {
    if (limitPrefixes.size >= ENCODED_MAX) limitPrefixes.clear();
    limitPrefixes.set(tenantId, (ofTenant = new Map()));
  }
  let prefix = ofTenant.get(limitId);
  if (prefix === undefined) {
    prefix = `${tenantTag(tenantId)}:${encodeKeyPart(limitId)}:`;
    if (ofTenant.size >= ENCODED_MAX) ofTenant.clear();
    ofTenant.set(limitId, prefix);
  }
  return prefix;
}

const ownerPrefixes = new Map<string, string>();

/** Prefix of every owner key of one tenant (for resets and inspection); memoized: per check. */
export function ownerKeyPrefix(tenantId: string): string {
  let prefix = ownerPrefixes.get(tenantId);
  if (prefix === undefined) {
    prefix = `${tenantTag(tenantId)}:o:`;
    // tenants are few; ids of deleted ones only clear the memo, it never grows past its bound
    if (ownerPrefixes.size >= ENCODED_MAX) ownerPrefixes.clear();
    ownerPrefixes.set(tenantId, prefix);
  }
  return prefix;
}

export function ownerKey(tenantId: string, owner: string): string {
  return `${ownerKeyPrefix(tenantId)}${encodeKeyPart(owner)}`;
}

/** The Redis key that holds a limit's counter for its owner. */
export function limitKey(spec: LimitSpec): string {
  if (spec.rule.algorithm === "sliding_log") {
    return `${limitKeyPrefix(spec.tenantId, spec.id)}${encodeKeyPart(spec.identity)}:l`;
  }
  if (spec.rule.algorithm === "concurrency") return leaseSetKey(spec);
  return ownerKey(spec.tenantId, spec.owner ?? spec.identity);
}

/** A concurrency limit's sorted set of leases held: {t:<tenant>}:<limit id>:<identity>:c. */
export function leaseSetKey(spec: LimitSpec): string {
  return `${limitKeyPrefix(spec.tenantId, spec.id)}${encodeKeyPart(spec.identity)}:c`;
}

const ENTRY_MAX = 20_000;
const entries = new Map<string, string>();

/**
 * The name of a limit's entry in its owner's key: the same for every owner (a reset of a
 * limit for all owners looks for it in each), different for another limit, route or
 * algorithm. 48 bits of SHA-256: a collision between the few limits of one owner is not a
 * practical concern.
 */
export function entryId(
  limitId: string,
  route: string | null,
  algorithm: LimitSpec["rule"]["algorithm"],
): string {
  const text = `${limitId}\n${route ?? ""}\n${codecFor(algorithm).tag}`;
  let id = entries.get(text);
  if (id === undefined) {
    id = createHash("sha256").update(text).digest("base64url").slice(0, 8);
    if (entries.size >= ENTRY_MAX) entries.clear();
    entries.set(text, id);
  }
  return id;
}

/** A spec's entry: its route is what its identity adds to its owner. */
export function entryOf(spec: LimitSpec): string {
  const owner = spec.owner ?? spec.identity;
  const route = spec.identity.length > owner.length ? spec.identity.slice(owner.length + 1) : null;
  return entryId(spec.id, route, spec.rule.algorithm);
}
