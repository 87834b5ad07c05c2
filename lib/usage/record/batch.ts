import "server-only";
import { offenderDetail, pairField } from "@/lib/usage/keys";
import { leaseField } from "@/lib/usage/lease-fields";
import type { LeaseRelease } from "@/lib/check/decision-sink";
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
  /** decisions counted for this tenant, and distinct counters it holds (a failed write is retried per tenant) */
  events: number;
  fields: number;
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
  /** leases released in time (not decisions: the recorder's stats count events) */
  releases = 0;
  dropped = 0;
  /** the latest decisions and denials of each tenant in this batch (recent.ts) */
  readonly recent: RecentDecisions;
  private fields = 0;

  constructor(private readonly limits: BatchLimits) {
    this.recent = new RecentDecisions(limits.recentPerTenant ?? RECENT_PER_TENANT);
  }

  private tenant(tenantId: string): TenantBatch {
    let tenant = this.tenants.get(tenantId);
    if (!tenant) {
      tenant = {
        pairs: new Map(),
        offenders: new Map(),
        details: new Map(),
        causes: new Map(),
        denials: new Map(),
        subjects: 0,
        detailCount: 0,
        events: 0,
        fields: 0,
      };
      this.tenants.set(tenantId, tenant);
    }
    return tenant;
  }

  /** One more of `field` at `atMs` (a second of its minute); false when the batch is full. */
  private count(tenant: TenantBatch, field: string, atMs: number): boolean {
    const pairs = minuteMap(
      minuteMap(tenant.pairs, Math.floor(atMs / 60_000)),
      Math.floor(atMs / 1_000) % 60,
    );
    // one lookup and one write per check (counts are small integers: nothing allocated)
    const count = pairs.get(field);
    if (count === undefined) {
      if (this.fields >= this.limits.maxFields) return false;
      this.fields++;
      tenant.fields++;
      pairs.set(field, 1);
    } else pairs.set(field, count + 1);
    return true;
  }

  /** A lease taken now, due at its expiry: both counted, or neither (the expiry pairs the acquisition). */
  private countLease(tenant: TenantBatch, keyId: string, route: string, nowMs: number, dueMs: number): void {
    if (this.fields + 2 > this.limits.maxFields) {
      this.dropped++;
      return;
    }
    this.count(tenant, leaseField(keyId, route, "acquired"), nowMs);
    this.count(tenant, leaseField(keyId, route, "due"), dueMs);
  }

  /** A lease released before its expiry: released now, and one fewer expired at dueMs. */
  addRelease(release: LeaseRelease, nowMs: number): void {
    const tenant = this.tenant(release.tenantId);
    const [keyId, route] = [release.keyId ?? "", release.route ?? ""];
    if (this.fields + 2 > this.limits.maxFields) {
      this.dropped++;
      return;
    }
    this.count(tenant, leaseField(keyId, route, "released"), nowMs);
    this.count(tenant, leaseField(keyId, route, "releasedDue"), release.dueMs);
    this.releases++;
  }

  add(event: UsageEvent, nowMs: number): void {
    const minute = Math.floor(nowMs / 60_000);
    const tenant = this.tenant(event.tenantId);
    const field = pairField(event.keyId ?? "", event.route ?? "", event.outcome);
    if (!this.count(tenant, field, nowMs)) {
      this.dropped++;
      return;
    }
    this.events++;
    tenant.events++;
    // only checks that took a lease carry its expiry
    if (event.leaseDueMs !== undefined)
      this.countLease(tenant, event.keyId ?? "", event.route ?? "", nowMs, event.leaseDueMs);
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
    return this.events === 0 && this.releases === 0;
  }
}
