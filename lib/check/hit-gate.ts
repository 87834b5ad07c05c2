import "server-only";

// Whether a cache in front of a computation pays for itself under the traffic it sees: a
// miss costs its Map probe, a new entry and the garbage collector's time for it, so below
// some share of hits the cache costs more than it saves (docs/architecture.md, the caches).
// The gate counts hits over windows of lookups; while a window's share is under the cache's
// own threshold, only one check in `sampleEvery` consults it, which keeps both the cache and
// the share current, so traffic that turns repetitive turns the cache back on.

export class HitGate {
  private lookups = 0;
  private hits = 0;
  private skipped = 0;
  private skipping = false;

  constructor(
    /** the least share of hits (0..1) at which every check consults the cache */
    private readonly minHitShare: number,
    private readonly window = 4_096,
    private readonly sampleEvery = 8,
  ) {
    if (!(minHitShare >= 0 && minHitShare <= 1)) throw new RangeError("minHitShare must be in 0..1");
    if (window < 1 || sampleEvery < 1) throw new RangeError("window and sampleEvery must be >= 1");
  }

  /** Whether this check should look in the cache (and then tally what it found). */
  consults(): boolean {
    if (!this.skipping) return true;
    if (++this.skipped < this.sampleEvery) return false;
    this.skipped = 0;
    return true;
  }

  /** Counts one lookup; at the end of a window, decides whether checks skip the cache. */
  tally(hit: boolean): void {
    if (hit) this.hits++;
    if (++this.lookups === this.window) {
      this.skipping = this.hits < this.window * this.minHitShare;
      this.lookups = 0;
      this.hits = 0;
    }
  }

  /** The cache was emptied (a new config version): every check consults again. */
  reset(): void {
    this.skipping = false;
    this.lookups = 0;
    this.hits = 0;
    this.skipped = 0;
  }

  /** True while most checks skip the cache. */
  get skippingLookups(): boolean {
    return this.skipping;
  }
}
