import type { LimitRule } from "@/lib/shared/limit-types";
import { big, max, NO_WAIT, type ReferenceAlgorithm, type State } from "@/lib/check/limiter/reference/types";

// concurrency: at most L leases held at once; a lease is held from its check until released
// or until now >= its expiry (taken at t, it expires at t + W). Cost is not counted.

type Lease = [expiry: bigint, id: bigint];

let unnamed = 0n;

const leasesOf = (s: State | undefined): Lease[] => (s ? (s.leases as Lease[]) : []);
const live = (s: State | undefined, now: bigint): Lease[] => leasesOf(s).filter(([expiry]) => expiry > now);

export const concurrency: ReferenceAlgorithm = {
  // no cost is too large: a check takes one slot
  capacity: () => 1n << 62n,
  look: (s, rule, _cost, now) => ({ admits: big(live(s, now).length) < big(rule.limit), wait: NO_WAIT }),
  // without a lease id (what-if replay, the editor's simulation: checks are never
  // released there), one of its own, below any real id
  consume: (s, rule, _cost, now, lease) => ({
    leases: [...live(s, now), [now + big(rule.windowMs), lease === undefined ? --unnamed : big(lease)]],
  }),
  remaining: (s, rule, now) => max(0n, big(rule.limit) - big(live(s, now).length)),
  full: (s, _rule, now) => live(s, now).length === 0,
};

/** The state without lease `id` (a release; the same state when it holds none). */
export function released(s: State | undefined, id: number): State | undefined {
  if (!s) return s;
  return { leases: leasesOf(s).filter(([, lease]) => lease !== big(id)) };
}

export const isLeaseRule = (rule: LimitRule): boolean => rule.algorithm === "concurrency";
