import "server-only";
import { LocalCounter } from "@/lib/check/limiter/local/local-counter";
import type { LocalRule } from "@/lib/check/limiter/local/local-algorithms";

// The local counters of one server: an LRU of recent identities (SLUICE_LOCAL_LIMIT_IDENTITIES
// counters at most), plus the set the next sync must include (counters used since the last
// one). A Map keeps insertion order, so the least recently used is its first key; a counter
// is moved to the end at most once per sync (its first use since), not on every check. An
// evicted counter with increments Redis has not confirmed stays in the sync set until they
// are pushed; past twice the capacity (a flood of identities while Redis is down) such
// counters are dropped with their increments rather than let memory grow.

export class CounterStore {
  private readonly counters = new Map<string, LocalCounter>();
  /** counters used since they were last synced (the sync takes them) */
  readonly dirty = new Set<LocalCounter>();
  /** the smallest syncEvery seen: the sync cycle's tick */
  minSyncEveryMs = Number.POSITIVE_INFINITY;

  constructor(readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new RangeError("capacity must be >= 1");
  }

  get size(): number {
    return this.counters.size;
  }

  /** The counter at `key`, created when absent (evicting the least recently used). */
  use(key: string, tenantId: string, rule: LocalRule, syncEveryMs: number): LocalCounter {
    let counter = this.counters.get(key);
    if (counter === undefined) {
      counter = new LocalCounter(key, tenantId, rule, syncEveryMs);
      if (this.counters.size >= this.capacity) this.evictOldest();
      this.counters.set(key, counter);
      if (syncEveryMs < this.minSyncEveryMs) this.minSyncEveryMs = syncEveryMs;
    } else {
      // the config may have changed its numbers (same key: same algorithm, limit and owner)
      counter.rule = rule;
      if (counter.syncEveryMs !== syncEveryMs) {
        counter.syncEveryMs = syncEveryMs;
        if (syncEveryMs < this.minSyncEveryMs) this.minSyncEveryMs = syncEveryMs;
      }
      if (!counter.dirty) {
        this.counters.delete(key);
        this.counters.set(key, counter);
      }
    }
    if (!counter.dirty) {
      counter.dirty = true;
      this.dirty.add(counter);
    }
    return counter;
  }

  private evictOldest(): void {
    const oldest = this.counters.entries().next();
    if (oldest.done) return;
    const [key, counter] = oldest.value;
    this.counters.delete(key);
    if (!counter.unsynced) this.dirty.delete(counter);
    else if (this.dirty.size > 2 * this.capacity) {
      this.dirty.delete(counter);
      counter.dirty = false;
    }
  }

  /** Counters cleared (an admin reset, Redis lost its data): start from nothing. */
  clear(): void {
    this.counters.clear();
    this.dirty.clear();
  }
}
