import "server-only";
import type { CheckShape } from "@/lib/check/shape-types";
import type { RenderedDecision } from "@/lib/check/render/rendered";
import { leaseToken } from "@/lib/check/lease/lease-token";

// An admitted check with concurrency limits answers its lease: the token (lease-token.ts)
// as the body's last field, `"lease":"..."`, for the caller to release when its request
// ends (POST /api/check/release). Added to the rendered text rather than the template: the
// token differs per check, and only checks that take leases pay for it.

/** The check a lease is counted under in usage (its decision's key and route). */
export interface LeaseOwner {
  keyId: string | null;
  route: string | null;
}

/** A leased answer and when its lease expires (epoch ms), for the usage counts. */
export interface LeasedAnswer {
  rendered: RenderedDecision;
  /** undefined when no lease was taken (the check was denied or degraded) */
  dueMs: number | undefined;
}

// reply layout (lua/check.lua): allowed, nowMs, then six integers per limit, consumed second
const HEAD = 2;
const PER_LIMIT = 6;
const CONSUMED = 1;

/**
 * The rendered answer with its lease, when the check was admitted (else as it was). The
 * lease expires at the earliest timeout of the limits that took it, by Redis' clock.
 */
export function withLease(
  rendered: RenderedDecision,
  shape: CheckShape,
  keys: readonly string[],
  lease: number,
  reply: { values: readonly number[]; at: number },
  owner: LeaseOwner,
): LeasedAnswer {
  if (!rendered.allowed || rendered.cause !== null) return { rendered, dueMs: undefined };
  const { values, at } = reply;
  const nowMs = values[at + 1] as number;
  const specs = shape.specs;
  const sets: string[] = [];
  let dueMs = Infinity;
  for (let i = 0; i < specs.length; i++) {
    const rule = (specs[i] as CheckShape["specs"][number]).rule;
    if (rule.algorithm !== "concurrency") continue;
    sets.push(keys[i] as string);
    if (values[at + HEAD + PER_LIMIT * i + CONSUMED] === 1) dueMs = Math.min(dueMs, nowMs + rule.windowMs);
  }
  if (sets.length === 0) return { rendered, dueMs: undefined };
  // none took it when every concurrency limit was a shadow one that denied: nothing to count
  const usage = dueMs === Infinity ? null : { ...owner, dueMs };
  const token = leaseToken(shape.resolved.tenant.id, lease, sets, usage);
  const json = `${rendered.json.slice(0, -1)},"lease":"${token}"}`;
  return { rendered: { ...rendered, json }, dueMs: usage?.dueMs };
}
