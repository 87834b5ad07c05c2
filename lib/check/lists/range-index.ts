import type { IpKey } from "@/lib/check/lists/ip-text";

// CIDR ranges sorted by start, each with the index of the range that encloses it. Two
// CIDR ranges are either nested or apart, so the ranges holding an address are the chain of
// encloser links from the last range starting at or before it: a binary search, then a
// walk up that is as long as the ranges are nested (at most 128, in practice one or two).

export interface Range<P> {
  start: IpKey;
  end: IpKey;
  value: P;
}

export class RangeIndex<P> {
  private readonly starts: IpKey[];
  private readonly ends: IpKey[];
  private readonly values: P[];
  /** index of the enclosing range, or -1 */
  private readonly parents: Int32Array;

  /** `ranges` in any order; two ranges with the same start and end must be merged before. */
  constructor(ranges: Range<P>[]) {
    // wider first at an equal start, so an encloser always comes before what it holds
    ranges.sort((a, b) =>
      a.start < b.start ? -1 : a.start > b.start ? 1 : a.end > b.end ? -1 : a.end < b.end ? 1 : 0,
    );
    this.starts = ranges.map((r) => r.start);
    this.ends = ranges.map((r) => r.end);
    this.values = ranges.map((r) => r.value);
    this.parents = new Int32Array(ranges.length);
    const open: number[] = [];
    for (let i = 0; i < ranges.length; i++) {
      while (
        open.length > 0 &&
        (this.ends[open[open.length - 1] as number] as IpKey) < (this.starts[i] as IpKey)
      )
        open.pop();
      this.parents[i] = open.length > 0 ? (open[open.length - 1] as number) : -1;
      open.push(i);
    }
  }

  get size(): number {
    return this.starts.length;
  }

  /** The index of the innermost range holding `key`, or -1. */
  private innermost(key: IpKey): number {
    const { starts, ends } = this;
    let low = 0;
    let high = starts.length - 1;
    let at = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if ((starts[mid] as IpKey) <= key) {
        at = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    while (at !== -1 && (ends[at] as IpKey) < key) at = this.parents[at] as number;
    return at;
  }

  /** The value of the innermost range holding `key` (the most specific), or undefined. */
  find(key: IpKey): P | undefined {
    const at = this.innermost(key);
    return at === -1 ? undefined : this.values[at];
  }

  /** Calls `each` with the value of every range holding `key`, innermost first. */
  forEach(key: IpKey, each: (value: P) => void): void {
    for (let at = this.innermost(key); at !== -1; at = this.parents[at] as number) each(this.values[at] as P);
  }
}
