import "server-only";
import type { CheckShape } from "@/lib/check/shape-types";
import type { RenderedDecision } from "@/lib/check/render/rendered";
import { leaseToken } from "@/lib/check/lease/lease-token";

// An admitted check with concurrency limits answers its lease: the token (lease-token.ts)
// as the body's last field, `"lease":"..."`, for the caller to release when its request
// ends (POST /api/check/release). Added to the rendered text rather than the template: the
// token differs per check, and only checks that take leases pay for it.

/** The rendered answer with its lease, when the check was admitted (else as it was). */
export function withLease(
  rendered: RenderedDecision,
  shape: CheckShape,
  keys: readonly string[],
  lease: number,
): RenderedDecision {
  if (!rendered.allowed || rendered.cause !== null) return rendered;
  const specs = shape.specs;
  const sets: string[] = [];
  for (let i = 0; i < specs.length; i++) {
    if ((specs[i] as CheckShape["specs"][number]).rule.algorithm === "concurrency")
      sets.push(keys[i] as string);
  }
  if (sets.length === 0) return rendered;
  const token = leaseToken(shape.resolved.tenant.id, lease, sets);
  return { ...rendered, json: `${rendered.json.slice(0, -1)},"lease":"${token}"}` };
}
