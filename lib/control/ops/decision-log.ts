import "server-only";
import type { Principal } from "@/lib/shared/principal";
import { readableTenant } from "@/lib/control/data/tenant-access";
import { resolveCheck } from "@/lib/control/counters/resolve-check";
import { mergeSample, readTenantSample } from "@/lib/control/ops/recent-sample";
import { LOG_MAX_ROWS, type DecisionLogQuery } from "@/lib/control/ops/decision-log-query";
import { LOG_PER_TENANT, RECENT_PER_TENANT, RECENT_TTL_SECONDS, type RecentEntry } from "@/lib/usage/recent";
import { wallNow } from "@/lib/shared/wall-clock";

// The decision log: one tenant's sampled decisions, denials and degraded answers, filtered.
// Read from the capped per-tenant lists the front's usage flush writes, so the check path
// pays nothing more for it; the principal must be able to read the tenant (a tenant it may
// not see is a 404, and a key of another tenant is "no key named" in this one).

export interface LogEntry {
  at: string;
  key: string | null;
  route: string | null;
  subject: string | null;
  outcome: RecentEntry["outcome"];
  reason: string;
  deniedBy: string | null;
}

export interface DecisionLog {
  tenant: string;
  entries: LogEntry[];
  /** entries matching the filters before `limit` cut them */
  matched: number;
  /** entries in the tenant's sample */
  sampled: number;
  /** what the sample keeps, for the page and the API's readers */
  bound: {
    decisionsPerTenant: number;
    denialsPerTenant: number;
    perFlushPerFront: number;
    idleExpiryHours: number;
  };
}

export const DEFAULT_LOG_ROWS = 100;

export async function readDecisionLog(principal: Principal, query: DecisionLogQuery): Promise<DecisionLog> {
  const tenant = await readableTenant(principal, query.tenant, "viewer");
  const check = await resolveCheck(query.tenant, query.key ?? null, query.route ?? null);
  const all = mergeSample(await readTenantSample(tenant.id));
  // an unmatched route is recorded as "?" (lib/check: the route named no declared pattern)
  const route = query.route === undefined ? undefined : (check.route ?? "?");
  const since = query.minutes === undefined ? -Infinity : wallNow() - query.minutes * 60_000;
  const matching = all.filter(
    (e) =>
      e.at >= since &&
      (query.key === undefined || e.keyId === check.keyId) &&
      (route === undefined || e.route === route) &&
      (query.subject === undefined || e.subject === query.subject) &&
      (query.outcome === undefined || e.outcome === query.outcome) &&
      (query.reason === undefined || e.reason === query.reason) &&
      (query.deniedBy === undefined || e.deniedBy === query.deniedBy),
  );
  const names = check.tenant.keyNameById;
  const limit = Math.min(query.limit ?? DEFAULT_LOG_ROWS, LOG_MAX_ROWS);
  return {
    tenant: tenant.slug,
    entries: matching.slice(0, limit).map((e) => ({
      at: new Date(e.at).toISOString(),
      key: e.keyId === null ? null : (names[e.keyId] ?? e.keyId),
      route: e.route,
      subject: e.subject,
      outcome: e.outcome,
      reason: e.reason,
      deniedBy: e.deniedBy,
    })),
    matched: matching.length,
    sampled: all.length,
    bound: {
      decisionsPerTenant: LOG_PER_TENANT,
      denialsPerTenant: LOG_PER_TENANT,
      perFlushPerFront: RECENT_PER_TENANT,
      idleExpiryHours: RECENT_TTL_SECONDS / 3_600,
    },
  };
}
