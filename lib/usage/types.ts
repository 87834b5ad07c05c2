import type { DegradedCause } from "@/lib/check/types";

// Usage shapes shared by the server queries and the client charts. Types only: no server
// code here, so components may import it.

export type Outcome = "allowed" | "rejected" | "shadow_rejected" | "degraded";

/** One decision as /api/check reports it to the recorder. */
export interface UsageEvent {
  tenantId: string;
  /** the API key's id, or null for checks without a key */
  keyId: string | null;
  /** the matched route pattern ("GET /v1/items/:id"), "?" when one was sent but matched none, null when none was sent */
  route: string | null;
  outcome: Outcome;
  /** the check's subject (IP, user id), counted only for the top offenders */
  subject: string | null;
  /** why a degraded decision is degraded (null or absent for the others): counted per minute */
  cause?: DegradedCause | null;
  /** the decision's reason and JSON body: kept only in the recent-decisions sample */
  reason?: string;
  body?: string;
  /** the check took a lease expiring then (epoch ms): counted acquired now and due then */
  leaseDueMs?: number;
}

import type { Counts } from "@/lib/shared/usage-counts";

export type { Counts };

export interface UsagePoint extends Counts {
  /** bucket start, epoch ms */
  t: number;
}

export type UsageSource = "seconds" | "minutes" | "hours" | "days";

export interface BreakdownRow extends Counts {
  /** key name or route pattern; "(no key)", "(no route)" or "(unmatched route)"; "(other)" for the rest grouped */
  name: string;
  /** key id or route pattern; null for the grouped rest */
  id: string | null;
}

export interface Offender {
  kind: "key" | "subject";
  /** key name (or id when unknown) or the subject text */
  name: string;
  rejected: number;
}

export interface LimitUtilization {
  limit: string;
  by: string;
  /** "tenant", "key backend", "route GET /v1/items/:id", "key backend · route ..." */
  scope: string;
  limitValue: number;
  windowMs: number;
  /** admitted checks observed within the last window (the busiest owner for by: key) */
  used: number;
  remaining: number;
  /** used / limit, 0..1+ */
  utilization: number;
}

/** Degraded decisions by cause (lib/usage/read/degraded-causes.ts). */
export type CauseCounts = Record<DegradedCause, number>;

export const ZERO_COUNTS: Counts = {
  allowed: 0,
  rejected: 0,
  shadowRejected: 0,
  degraded: 0,
  leasesAcquired: 0,
  leasesReleased: 0,
  leasesExpired: 0,
};

export function addCounts(into: Counts, more: Counts): void {
  into.allowed += more.allowed;
  into.rejected += more.rejected;
  into.shadowRejected += more.shadowRejected;
  into.degraded += more.degraded;
  into.leasesAcquired += more.leasesAcquired;
  into.leasesReleased += more.leasesReleased;
  into.leasesExpired += more.leasesExpired;
}
