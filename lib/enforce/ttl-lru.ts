// A bounded map whose entries expire: the oldest entry goes when it is full, and an entry
// past its time reads as absent. A Map keeps insertion order, so "oldest" is its first key
// and a hit re-inserts the entry to make it the newest. Time is injected for tests.

export type Clock = () => number;

interface Entry<V> {
  value: V;
  expiresAt: number;
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
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** ttlMs overrides the default time to live for this entry. */
  set(key: string, value: V, ttlMs: number = this.ttlMs): void {
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
