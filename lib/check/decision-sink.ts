import "server-only";
import { checkMetrics } from "@/lib/check/check-metrics";
import type { DecisionOutcome, DecisionReason, DegradedCause } from "@/lib/check/types";

// Where every decision is reported, once, after it is made: the hook for usage recording.
// record() runs on the check path, so an implementation must not do I/O per call: count
// in memory and flush in the background (one Redis pipeline per second, say), never one
// round trip per check. Set another sink with setDecisionSink() at start-up; the default
// only feeds the Prometheus metrics.

export interface DecisionContext {
  /** null when the check named no known tenant */
  tenantId: string | null;
  /** null when the check had no key or an unknown one */
  keyId: string | null;
  /** the resolved route pattern, or null */
  route: string | null;
  /** the check's subject, for top-offender views (never a metrics label) */
  subject: string | null;
  outcome: DecisionOutcome;
  reason: DecisionReason;
  /** why a degraded decision is degraded; null for the others */
  cause: DegradedCause | null;
  cost: number;
  dryRun: boolean;
  /** the answer's JSON (already rendered): the recent-decisions sample reads it off the check path */
  body?: string;
  /** the check took a lease that expires then (epoch ms, Redis' clock): absent on other checks */
  leaseDueMs?: number;
}

/** A lease released in time (answered released: true), counted under its check's key and route. */
export interface LeaseRelease {
  tenantId: string;
  keyId: string | null;
  route: string | null;
  /** when it would have expired (the lease token's): its expiry is taken off there */
  dueMs: number;
}

export interface DecisionSink {
  record(decision: DecisionContext): void;
  /** a service token authenticated a check (same rule: memory only, no I/O per call) */
  tokenUsed?(tokenId: string): void;
  /** a lease was released before it expired (same rule) */
  leaseReleased?(release: LeaseRelease): void;
}

export const metricsSink: DecisionSink = {
  record(decision) {
    checkMetrics.decision(decision.outcome, decision.reason);
    if (decision.cause !== null)
      checkMetrics.degraded(decision.reason !== "store_unavailable", decision.cause);
  },
};

let current: DecisionSink = metricsSink;

/** Replaces the sink; a recording sink should also call metricsSink.record to keep the metrics. */
export function setDecisionSink(sink: DecisionSink): void {
  current = sink;
}

export function decisionSink(): DecisionSink {
  return current;
}
