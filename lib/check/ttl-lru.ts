// A bounded map whose entries expire: when it is full an entry not read since it was last
// looked at goes, and an entry past its time reads as absent. Second chance (CLOCK) rather
// than a strict LRU: a hit only sets a flag, where re-inserting the entry on every hit costs
// a Map delete and set per check; at eviction a flagged entry moves to the back
// once, flag cleared, so what is read stays and a flood of new keys recycles only itself.
// Time is injected for tests.

export type Clock = () => number;

interface Entry<V> {
  value: V;
  expiresAt: number;
  /** read since it was inserted or last passed over by eviction */
  used: boolean;
}

export class TtlLru<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly capacity: number,
    private readonly ttlMs: number,
    private readonly now: Clock = performance.now.bind(performance),
  ) {
    if (capacity < 1) throw new RangeError("capacity must be >= 1");
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    entry.used = true;
    return entry.value;
  }

  /** ttlMs overrides the default time to live for this entry. */
  set(key: string, value: V, ttlMs: number = this.ttlMs): void {
    const expiresAt = this.now() + ttlMs;
    const old = this.entries.get(key);
    if (old !== undefined) {
      // in place: a refreshed entry keeps its turn
      old.value = value;
      old.expiresAt = expiresAt;
      old.used = true;
      return;
    }
    if (this.entries.size >= this.capacity) this.evictOne();
    this.entries.set(key, { value, expiresAt, used: false });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Drops the oldest entry not read since its last pass; each entry is passed over once. */
  private evictOne(): void {
    for (let passes = this.entries.size; passes > 0; passes--) {
      const oldest = this.entries.entries().next();
      if (oldest.done) return;
      const [key, entry] = oldest.value;
      this.entries.delete(key);
      if (!entry.used) return;
      entry.used = false;
      this.entries.set(key, entry);
    }
    // every entry was read: the loop moved each to the back once; drop the oldest now
    const first = this.entries.keys().next();
    if (!first.done) this.entries.delete(first.value);
  }
}
