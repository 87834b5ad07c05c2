import "server-only";
import { hasRole, isOperator, type Principal } from "@/lib/shared/principal";
import { readableTenant } from "@/lib/control/data/tenant-access";
import { CounterQuery, counterState, type CounterState } from "@/lib/control/data/counters";
import { resolveCheck } from "@/lib/control/data/resolve-check";
import { withStore } from "@/lib/control/data/counters-store";
import { redis } from "@/lib/shared/redis/redis";
import { recentKey } from "@/lib/usage/keys";
import { recentEntrySchema, type RecentEntry } from "@/lib/usage/recent";
import { usageSettings } from "@/lib/usage/settings";

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

function parseEntries(raw: string[]): RecentEntry[] {
  const out: RecentEntry[] = [];
  for (const text of raw) {
    try {
      const entry = recentEntrySchema.safeParse(JSON.parse(text));
      if (entry.success) out.push(entry.data);
    } catch {
      // an entry that does not parse (JSON or shape) is skipped: the sample is best effort
    }
  }
  return out;
}

export async function lookupIdentifier(principal: Principal, query: LookupQuery): Promise<Lookup> {
  const tenant = await readableTenant(principal, query.tenant, "viewer");
  const state = await counterState(principal, query);
  const check = await resolveCheck(query.tenant, query.key ?? null, query.route ?? null);
  const ns = usageSettings().ns;
  const [decisions, denials] = await withStore(async () => {
    const replies = await redis()
      .pipeline()
      .lrange(recentKey(ns, tenant.id, "d"), 0, -1)
      .lrange(recentKey(ns, tenant.id, "x"), 0, -1)
      .exec();
    return (replies ?? []).map(([error, value]) => {
      if (error) throw error;
      return parseEntries(Array.isArray(value) ? (value as string[]) : []);
    });
  });
  const keyNames = check.tenant.keyNameById;
  const matches = (e: RecentEntry): boolean =>
    (query.key === undefined || e.keyId === check.keyId) &&
    (query.route === undefined || e.route === check.route) &&
    (query.subject === undefined || e.subject === query.subject);
  const shown = (entries: RecentEntry[] | undefined): LookupDecision[] =>
    (entries ?? []).filter(matches).map((e) => ({
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
    decisions: shown(decisions),
    denials: shown(denials),
    canReset: isOperator(principal) || hasRole(principal, tenant.id, "editor"),
    canResetImposed: isOperator(principal),
  };
}
