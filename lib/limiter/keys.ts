import "server-only";
import type { LimitSpec } from "@/lib/limiter/types";
import { codecFor } from "@/lib/limiter/algorithms";

// Key layout: {t:<tenant>}:<limit id>:<identity>:<algorithm tag>
// - every key of one tenant carries the Cluster hash tag {t:<tenant>}, so one script call
//   may touch all limits of a check on Redis Cluster too;
// - each part is percent-encoded outside [A-Za-z0-9._~-], so no user text (subject, names)
//   can add braces or colons and escape its place in the key;
// - the algorithm tag keeps another algorithm's state format from being read after a
//   limit's algorithm changes: that limit starts fresh.
// A deployment-wide prefix (REDIS_PREFIX) is the client's `keyPrefix`, applied by ioredis
// to script keys as well; it holds no braces, so the hash tag stays the key's first {...}.

const SAFE = /^[A-Za-z0-9._~-]$/;

export function encodeKeyPart(text: string): string {
  let out = "";
  for (const ch of text) {
    if (SAFE.test(ch)) out += ch;
    else
      for (const byte of Buffer.from(ch, "utf8"))
        out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
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
