import "server-only";
import { hasRole, isOperator, type Principal } from "@/lib/shared/principal";
import { readableTenant } from "@/lib/control/data/tenant-access";
import { CounterQuery } from "@/lib/control/counters/counter-query";
import { counterState, type CounterState } from "@/lib/control/counters/counters";
import { resolveCheck } from "@/lib/control/counters/resolve-check";
import { readTenantSample } from "@/lib/control/ops/recent-sample";
import type { RecentEntry } from "@/lib/usage/recent";

// Identifier lookup: for a key, a subject or a route of one tenant, its live counters for
// every limit (the admin API's state), and its recent decisions and denials with the limit
// that denied each, from the bounded per-tenant sample the front's usage flush writes.

export const LookupQuery = CounterQuery;
export type LookupQuery = CounterQuery;

export interface LookupDecision {
  at: string;
  key: string | null;
  route: string | null;
  subject: string | null;
  outcome: string;
  reason: string;
  deniedBy: string | null;
}

export interface Lookup {
  state: CounterState;
  /** the latest sampled decisions matching the identifier, newest first */
  decisions: LookupDecision[];
  /** the latest sampled denials matching it, newest first */
  denials: LookupDecision[];
  /** whether the caller may reset this tenant's own limits (plan and global-route limits need an operator) */
  canReset: boolean;
  /** whether it may also reset plan and global-route limits (operators) */
  canResetImposed: boolean;
}

/** Matching entries shown per list; the decision log pages through the whole sample. */
export const LOOKUP_ROWS = 50;

export async function lookupIdentifier(principal: Principal, query: LookupQuery): Promise<Lookup> {
  const tenant = await readableTenant(principal, query.tenant, "viewer");
  const state = await counterState(principal, query);
  const check = await resolveCheck(query.tenant, query.key ?? null, query.route ?? null);
  const sample = await readTenantSample(tenant.id);
  const keyNames = check.tenant.keyNameById;
  const matches = (e: RecentEntry): boolean =>
    (query.key === undefined || e.keyId === check.keyId) &&
    (query.route === undefined || e.route === check.route) &&
    (query.subject === undefined || e.subject === query.subject);
  const shown = (entries: RecentEntry[]): LookupDecision[] =>
    entries
      .filter(matches)
      .slice(0, LOOKUP_ROWS)
      .map((e) => ({
        at: new Date(e.at).toISOString(),
        key: e.keyId === null ? null : (keyNames[e.keyId] ?? e.keyId),
        route: e.route,
        subject: e.subject,
        outcome: e.outcome,
        reason: e.reason,
        deniedBy: e.deniedBy,
      }));
  return {
    state,
    decisions: shown(sample.decisions),
    // the second list also holds degraded answers (for the decision log)
    denials: shown(sample.notable.filter((e) => e.outcome === "rejected")),
    canReset: isOperator(principal) || hasRole(principal, tenant.id, "editor"),
    canResetImposed: isOperator(principal),
  };
}
