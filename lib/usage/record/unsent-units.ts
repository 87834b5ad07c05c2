import "server-only";
import type { TenantBatch } from "@/lib/usage/record/batch";
import type { TenantRecent } from "@/lib/usage/recent";
import { unitEvents, unitFields, type TenantQueue, type TenantUnit } from "@/lib/usage/record/flush-units";

// What flushes could not write, held for the next flush: per tenant the unit in doubt and
// the counts taken since (flush-units.ts), and minute-index entries. Bounded in age and in
// counters held, so a Redis that stays away costs a fixed amount of memory, and what falls
// out is counted.

/** How long a tenant's unwritten counts are retried: well before the rollup reads their minute. */
export const RETRY_MS = 60_000;

export class UnsentUnits {
  private queues = new Map<string, TenantQueue>();
  private index = new Map<number, Set<string>>();

  constructor(
    /** counters (distinct fields) held at most */
    private readonly maxFields: number,
    /** told how many decisions fell out */
    private readonly onDropped: (events: number) => void,
  ) {}

  /** units held */
  get size(): number {
    let n = 0;
    for (const queue of this.queues.values()) n += (queue.sent ? 1 : 0) + (queue.next ? 1 : 0);
    return n;
  }

  /** nothing held: no unit and no index entry */
  get empty(): boolean {
    return this.queues.size === 0 && this.index.size === 0;
  }

  /** decisions held, not yet written */
  get events(): number {
    let n = 0;
    for (const unit of this.units()) n += unitEvents(unit);
    return n;
  }

  private *units(): Generator<TenantUnit> {
    for (const queue of this.queues.values()) {
      if (queue.sent) yield queue.sent;
      if (queue.next) yield queue.next;
    }
  }

  /** Everything held, with a flush's new counts queued behind (the flush gives back what fails). */
  take(
    fresh: ReadonlyMap<string, TenantBatch>,
    recent: (tenantId: string) => TenantRecent | null,
    nowMs: number,
  ): { queues: Map<string, TenantQueue>; index: Map<number, Set<string>> } {
    const taken = { queues: this.queues, index: this.index };
    this.queues = new Map();
    this.index = new Map();
    for (const [tenantId, counts] of fresh) {
      const queue = taken.queues.get(tenantId) ?? { sent: null, next: null };
      const part = { counts, recent: recent(tenantId) };
      if (queue.next) queue.next.parts.push(part);
      else queue.next = { tenantId, parts: [part], firstMs: nowMs, seq: 0 };
      taken.queues.set(tenantId, queue);
    }
    return taken;
  }

  /** Keeps the queues with units left, newest first within the age and the counters; drops the rest. */
  keep(queues: ReadonlyMap<string, TenantQueue>, nowMs: number): void {
    const held: Array<{ unit: TenantUnit; queue: TenantQueue }> = [];
    for (const queue of queues.values()) {
      if (queue.sent) held.push({ unit: queue.sent, queue });
      if (queue.next) held.push({ unit: queue.next, queue });
    }
    let fields = 0;
    for (const { unit, queue } of held.sort((a, b) => b.unit.firstMs - a.unit.firstMs)) {
      const size = unitFields(unit);
      if (nowMs - unit.firstMs <= RETRY_MS && fields + size <= this.maxFields) {
        fields += size;
        continue;
      }
      this.onDropped(unitEvents(unit));
      if (queue.sent === unit) queue.sent = null;
      else queue.next = null;
    }
    for (const [tenantId, queue] of queues) if (queue.sent || queue.next) this.queues.set(tenantId, queue);
  }

  keepIndex(index: ReadonlyMap<number, ReadonlySet<string>>): void {
    for (const [minute, tenants] of index) {
      const set = this.index.get(minute) ?? new Set<string>();
      for (const tenant of tenants) set.add(tenant);
      this.index.set(minute, set);
    }
  }
}
