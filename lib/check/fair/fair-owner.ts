import "server-only";
import type { HttpAnswer } from "@/lib/check/answer";
import { errorAnswer } from "@/lib/check/answer";
import type { Caller } from "@/lib/check/service-auth";

// Whose share a check is taken from: a token that may check for one tenant only is that
// tenant's (all its tokens share one queue, so more tokens buy no larger share); any other
// token (several tenants, every tenant, the bootstrap token) is its own owner.

export interface FairOwner {
  /** the fair gate's queue */
  key: string;
  /** the tenant whose plan's service limit applies, if the token is that tenant's only */
  tenant: string | null;
}

/** The owner of a caller's checks, kept on the caller (callers are memoized per config version). */
export function fairOwnerOf(caller: Caller): FairOwner {
  let owner = caller.owner;
  if (owner === undefined) {
    const only = caller.tenants !== null && caller.tenants.size === 1 ? [...caller.tenants][0] : undefined;
    owner = only !== undefined ? { key: `t:${only}`, tenant: only } : { key: `c:${caller.id}`, tenant: null };
    caller.owner = owner;
  }
  return owner;
}

/**
 * 429 for work refused by the gate: the caller's own queue is full. Retry-After 1 s: the
 * queue holds at most a few hundred milliseconds of the front's work.
 */
export function overShareAnswer(maxQueued: number): HttpAnswer {
  return errorAnswer(
    429,
    "over_fair_share",
    `This caller's checks already fill its share of the check front (at most ${maxQueued} may wait); retry after 1 s or send fewer at once.`,
    undefined,
    {
      "retry-after": "1",
      "ratelimit-policy": `"sluice-fair-share";q=${maxQueued};w=1`,
      ratelimit: `"sluice-fair-share";r=0;t=1`,
    },
  );
}
