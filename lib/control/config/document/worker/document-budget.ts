import "server-only";

// Each principal's share of the app's time for documents. One credential runs one import
// or preview at a time (one-at-a-time.ts), but looping them back to back still keeps a
// core busy with its parses, their garbage and their uploads, and on a small machine the
// other tenants' admin requests then wait for a CPU. So each principal has a budget of
// document time: a bucket of milliseconds that every import or preview draws from by how
// long it took (reading the body, the worker, the writes), refilled at a quarter of a
// second per second. A person importing a document now and then never meets it; a loop of
// multi-megabyte documents is held to a quarter of a core, and its next one is refused
// (429 with Retry-After, one-at-a-time.ts) until the bucket is back above zero.

export interface BudgetOptions {
  /** ms of document time a principal may use at once */
  capacityMs: number;
  /** ms of document time given back per second */
  refillPerSecond: number;
}

interface Bucket {
  ms: number;
  at: number;
}

export class DocumentBudget {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly options: BudgetOptions) {}

  /** 0 when the principal may start a document, else the seconds until its bucket is above zero. */
  waitSeconds(key: string, now: number): number {
    const bucket = this.buckets.get(key);
    if (bucket === undefined) return 0;
    this.refill(bucket, now);
    if (bucket.ms > 0) return 0;
    return Math.max(1, Math.ceil((-bucket.ms + 1) / this.options.refillPerSecond));
  }

  /** Takes `tookMs` of document time from the principal's bucket (it may go below zero). */
  charge(key: string, tookMs: number, now: number): void {
    let bucket = this.buckets.get(key);
    if (bucket === undefined) {
      bucket = { ms: this.options.capacityMs, at: now };
      this.buckets.set(key, bucket);
    } else this.refill(bucket, now);
    bucket.ms -= tookMs;
    this.forgetFull(now);
  }

  private refill(bucket: Bucket, now: number): void {
    const given = ((now - bucket.at) / 1000) * this.options.refillPerSecond;
    bucket.ms = Math.min(this.options.capacityMs, bucket.ms + given);
    bucket.at = now;
  }

  /** Buckets back at capacity hold nothing worth keeping: the map holds recent principals only. */
  private forgetFull(now: number): void {
    for (const [key, bucket] of this.buckets) {
      this.refill(bucket, now);
      if (bucket.ms >= this.options.capacityMs) this.buckets.delete(key);
    }
  }
}

/** 15 s of document time at once, then a quarter of a second per second. */
export const documentBudget = new DocumentBudget({ capacityMs: 15_000, refillPerSecond: 250 });
