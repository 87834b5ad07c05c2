import "server-only";
import type { Enforcement } from "@/lib/check/runtime";
import type { HttpAnswer } from "@/lib/check/answer";
import type { FairWork } from "@/lib/check/fair/fair-gate";
import { fairOwnerOf } from "@/lib/check/fair/fair-owner";
import { overServiceLimit } from "@/lib/check/fair/service-limits";
import type { Caller } from "@/lib/check/service-auth";
import { checkMetrics } from "@/lib/check/check-metrics";

// A caller's checks on their way in: first its tenant plan's service limit (when the plan
// sets one), then the fair gate. Either refusal is an answer instead of the decisions; no
// check of a refused request is made.

/** Starts `works` (`cost` checks in all) now or in turn; else the 429 to answer, nothing started. */
export function admit(
  enforcement: Enforcement,
  caller: Caller,
  cost: number,
  works: readonly FairWork[],
): HttpAnswer | null {
  const owner = fairOwnerOf(caller);
  if (owner.tenant !== null) {
    const limit = enforcement.holder.current.snapshot.tenants[owner.tenant]?.service;
    if (limit) {
      const { service } = enforcement.fair;
      const waitMs = service.take(owner.tenant, limit, cost, performance.now());
      if (waitMs > 0) {
        checkMetrics.refused("service_limit");
        return overServiceLimit(limit, waitMs, service.remaining(owner.tenant));
      }
    }
  }
  if (enforcement.fair.gate.submit(owner.key, works)) return null;
  checkMetrics.refused("fair_share");
  return enforcement.fair.refused;
}

/** A batch refused unread when its caller's queue is already full: a flood that ignores its 429s costs no parsing. */
export function refusedUnread(enforcement: Enforcement, caller: Caller): HttpAnswer | null {
  if (!enforcement.fair.gate.full(fairOwnerOf(caller).key)) return null;
  checkMetrics.refused("fair_share");
  return enforcement.fair.refused;
}
