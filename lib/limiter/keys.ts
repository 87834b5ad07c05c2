import "server-only";
import type { LimitSpec } from "@/lib/limiter/types";
import { codecFor } from "@/lib/limiter/algorithms";

// Key layout: {t:<tenant>}:<limit id>:<identity>:<algorithm tag>
// - every key of one tenant carries the Cluster hash tag {t:<tenant>}, so one script call
//   may touch all limits of a check on Redis Cluster too;
// - each part is percent-encoded, so no user text (subject, names) can add braces or colons
//   and escape its place in the key, nor glob characters to a SCAN pattern built from it;
// - the algorithm tag keeps another algorithm's state format from being read after a
//   limit's algorithm changes: that limit starts fresh.
// A deployment-wide prefix (REDIS_PREFIX) is the client's `keyPrefix`, applied by ioredis
// to script keys as well; it holds no braces, so the hash tag stays the key's first {...}.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const GLOB_AND_MARKS = /[!'()*]/g;

// Encoded parts are kept: the same tenants, limits and identities come back on every check.
const ENCODED_MAX = 20_000;
const encodedParts = new Map<string, string>();

/** Percent-encodes all but A-Z a-z 0-9 - _ . ~ (so no brace, colon, % or glob character). */
export function encodeKeyPart(text: string): string {
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

/** Prefix shared by every state key of one limit of a tenant (for resets and inspection). */
export function limitKeyPrefix(tenantId: string, limitId: string): string {
  return `${tenantTag(tenantId)}:${encodeKeyPart(limitId)}:`;
}

export function limitKey(spec: LimitSpec): string {
  const tag = codecFor(spec.rule.algorithm).tag;
  return `${limitKeyPrefix(spec.tenantId, spec.id)}${encodeKeyPart(spec.identity)}:${tag}`;
}
