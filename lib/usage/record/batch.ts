import "server-only";
import { offenderDetail, pairField } from "@/lib/usage/keys";
import type { UsageEvent } from "@/lib/usage/types";
import { RECENT_PER_TENANT, RecentDecisions } from "@/lib/usage/recent";
import { denyingLimit } from "@/lib/usage/record/denying-limit";

// The in-process aggregate between two flushes: counters only, so a check costs a few Map
// operations and no I/O. Bounded: past `maxFields` distinct (pair, second) counters or `maxSubjects`
// subjects per tenant, new entries are dropped and counted (an attack with random subjects
// must not grow memory; the offender list is approximate by design).

export interface TenantBatch {
  /** minute -> second -> pairs-hash field (key, route, outcome) -> count (pair-series.ts) */
  pairs: Map<number, Map<number, Map<string, number>>>;
  /** minute -> offender member ("k:<id>" | "s:<subject>") -> rejected count */
  offenders: Map<number, Map<string, number>>;
  /** minute -> offenderDetail(key, route, subject) -> rejected count (per key / route views) */
  details: Map<number, Map<string, number>>;
  /** minute -> degraded cause -> count (only degraded decisions touch it) */
  causes: Map<number, Map<string, number>>;
  /**
   * minute -> pairs-hash field of a rejection -> the limit that denied it (denying-limit.ts)
   * -> count: bounded by the pairs' fields times the few limits a check meets
   */
  denials: Map<number, Map<string, Map<string, number>>>;
  subjects: number;
  detailCount: number;
}

export interface BatchLimits {
  maxFields: number;
  maxSubjects: number;
  /** decisions (and denials) sampled per tenant; default RECENT_PER_TENANT */
  recentPerTenant?: number;
}

function bump(map: Map<string, number>, field: string): void {
  map.set(field, (map.get(field) ?? 0) + 1);
}

function minuteMap<K, V>(outer: Map<number, Map<K, V>>, minute: number): Map<K, V> {
  let inner = outer.get(minute);
  if (!inner) {
    inner = new Map();
    outer.set(minute, inner);
  }
  return inner;
}

export class UsageBatch {
  readonly tenants = new Map<string, TenantBatch>();
  events = 0;
  dropped = 0;
  /** the latest decisions and denials of each tenant in this batch (recent.ts) */
  readonly recent: RecentDecisions;
  private fields = 0;

  constructor(private readonly limits: BatchLimits) {
    this.recent = new RecentDecisions(limits.recentPerTenant ?? RECENT_PER_TENANT);
  }

  add(event: UsageEvent, nowMs: number): void {
    const minute = Math.floor(nowMs / 60_000);
    const second = Math.floor(nowMs / 1_000) % 60;
    let tenant = this.tenants.get(event.tenantId);
    if (!tenant) {
      tenant = {
        pairs: new Map(),
        offenders: new Map(),
        details: new Map(),
        causes: new Map(),
        denials: new Map(),
        subjects: 0,
        detailCount: 0,
      };
      this.tenants.set(event.tenantId, tenant);
    }
    const pairs = minuteMap(minuteMap(tenant.pairs, minute), second);
    const field = pairField(event.keyId ?? "", event.route ?? "", event.outcome);
    // one lookup and one write per check (counts are small integers: nothing allocated)
    const count = pairs.get(field);
    if (count === undefined) {
      if (this.fields >= this.limits.maxFields) {
        this.dropped++;
        return;
      }
      this.fields++;
      pairs.set(field, 1);
    } else pairs.set(field, count + 1);
    this.events++;
    this.recent.add(event, nowMs);
    // at most five causes: a bounded map per minute
    if (event.cause) bump(minuteMap(tenant.causes, minute), event.cause);
    if (event.outcome !== "rejected") return;
    const denying = denyingLimit(event.body);
    if (denying !== null) {
      const byField = minuteMap(tenant.denials, minute);
      let byLimit = byField.get(field);
      if (!byLimit) byField.set(field, (byLimit = new Map()));
      bump(byLimit, denying);
    }
    const offenders = minuteMap(tenant.offenders, minute);
    if (event.keyId) bump(offenders, `k:${event.keyId}`);
    if (event.subject) {
      const member = `s:${event.subject}`;
      if (offenders.has(member)) bump(offenders, member);
      else if (tenant.subjects < this.limits.maxSubjects) {
        tenant.subjects++;
        bump(offenders, member);
      }
    }
    // the same rejection by key, route and subject, bounded like the subjects
    const details = minuteMap(tenant.details, minute);
    const detail = offenderDetail(event.keyId ?? "", event.route ?? "", event.subject ?? "");
    if (details.has(detail)) bump(details, detail);
    else if (tenant.detailCount < this.limits.maxSubjects) {
      tenant.detailCount++;
      bump(details, detail);
    }
  }

  get empty(): boolean {
    return this.events === 0;
  }
}
