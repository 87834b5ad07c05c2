import "server-only";
import { z } from "zod";
import { tenantTag } from "@/lib/check/limiter/keys";
import { MAX_LEASE_TOKEN } from "@/lib/check/lease/release-schema";

// The lease a check answers when its concurrency limits admit it: an opaque token naming the
// tenant, the lease id and the lease sets it was taken in (each key after the tenant's hash
// tag), so any server releases it without a lookup. Nothing in it is trusted: a release
// checks that the caller may check for the tenant, and rebuilds every key under the tenant's
// own tag from a suffix that can only name a lease set (":<limit>:<identity>:c", each part
// percent-encoded, keys.ts). The lease id is 53 random bits (lease-id.ts): a token for a
// lease not seen cannot be guessed, and a made-up one releases nothing.
// For the usage counts it also names the API key and route its check was counted under and
// when it expires (the earliest of its limits' timeouts): a release in time is counted there
// (lib/usage/lease-fields.ts). A caller altering them can only misfile its own tenant's counts.

const SUFFIX = /^:[A-Za-z0-9_.~%-]+:[A-Za-z0-9_.~%-]+:c$/;

const tokenSchema = z.strictObject({
  t: z.string().min(1).max(256),
  l: z.string().regex(/^[1-9][0-9]{0,15}$/),
  k: z.array(z.string().max(1_024).regex(SUFFIX)).min(1).max(32),
  a: z.string().max(256).optional(),
  r: z.string().max(1_024).optional(),
  e: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/)
    .optional(),
});

/** What a lease's usage is counted under: its check's API key and route, and its expiry. */
export interface LeaseUsage {
  keyId: string | null;
  route: string | null;
  /** epoch ms (Redis' clock) the lease expires at, if not released before */
  dueMs: number;
}

export interface Lease {
  tenantId: string;
  /** the lease id, as the lease sets hold it */
  id: string;
  /** the lease sets, full keys (before the deployment's REDIS_PREFIX) */
  keys: string[];
  /** absent in tokens made before leases were counted */
  usage: LeaseUsage | null;
}

/** The token of lease `id` taken in the lease sets `keys` of tenant `tenantId`. */
export function leaseToken(
  tenantId: string,
  id: number,
  keys: readonly string[],
  usage: LeaseUsage | null,
): string {
  const tag = tenantTag(tenantId);
  const suffixes = keys.map((key) => key.slice(tag.length));
  const body: z.input<typeof tokenSchema> = { t: tenantId, l: String(id), k: suffixes };
  if (usage !== null) {
    body.e = String(usage.dueMs);
    if (usage.keyId !== null) body.a = usage.keyId;
    if (usage.route !== null) body.r = usage.route;
  }
  return Buffer.from(JSON.stringify(body)).toString("base64url");
}

/** The lease a token names, or null when it is not one (malformed, or not a lease set). */
export function readLeaseToken(token: string): Lease | null {
  if (token.length === 0 || token.length > MAX_LEASE_TOKEN || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const parsed = tokenSchema.safeParse(value);
  if (!parsed.success) return null;
  const { t, l, k, a, r, e } = parsed.data;
  if (!Number.isSafeInteger(Number(l))) return null;
  const tag = tenantTag(t);
  const dueMs = e === undefined ? NaN : Number(e);
  const usage = Number.isSafeInteger(dueMs) ? { keyId: a ?? null, route: r ?? null, dueMs } : null;
  return { tenantId: t, id: l, keys: k.map((suffix) => tag + suffix), usage };
}
