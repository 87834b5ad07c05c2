// A bounded map in two generations, for the check path's memos: entries go into `young`;
// when it holds `generation` entries it becomes `old` and the previous old one is dropped
// whole, and an entry read from `old` moves back to `young`. Eviction per entry (a strict
// LRU's delete and re-insert on every hit) was dear under one-off keys; here a flood of new
// keys costs one Map set each and recycles only itself, and at most 2 x `generation`
// entries are held.

export class Generations<V> {
  private young = new Map<string, V>();
  private old = new Map<string, V>();

  constructor(private readonly generation: number) {
    if (generation < 1) throw new RangeError("generation must be >= 1");
  }

  /** The entry, moved to the young generation when it was in the old one. */
  get(key: string): V | undefined {
    const young = this.young.get(key);
    if (young !== undefined) return young;
    const old = this.old.get(key);
    if (old !== undefined) {
      this.old.delete(key);
      this.set(key, old);
    }
    return old;
  }

  set(key: string, value: V): void {
    if (this.young.size >= this.generation && !this.young.has(key)) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  delete(key: string): void {
    this.young.delete(key);
    this.old.delete(key);
  }

  clear(): void {
    this.young = new Map();
    this.old = new Map();
  }

  get size(): number {
    return this.young.size + this.old.size;
  }
}
