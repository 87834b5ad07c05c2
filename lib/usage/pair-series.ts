import "server-only";

// A minute's per-second counts of one (key, route, outcome), as the pairs hash stores them
// (keys.ts, :p:): one field per pair whose value lists "<second>:<count>" entries, appended
// by each flush of each process (lua/happend-many.lua). It replaces a field per (second, key,
// route, outcome): on varied traffic (1,000 keys x 50 routes by Zipf) that made nearly one
// field per two checks, about 125 bytes of Redis each, and a minute's hash of 40,000 fields
// took Redis 19 ms to read. The same minute as pairs is one field per pair seen in it.
// A second may appear more than once in a value (two processes, or two flushes of one
// second): readers add them up.

/** One pair's counts in a batch: its earlier seconds already as text, the current one open. */
export class PairCounts {
  private done = "";
  private count = 1;

  /** `second`: the second of the check that made the pair (counted) */
  constructor(private current: number) {}

  /** the second being counted */
  get second(): number {
    return this.current;
  }

  /** Counts a check in `second` (a later one than before closes the current entry). */
  add(second: number): void {
    if (second === this.current) {
      this.count++;
      return;
    }
    this.done = this.text();
    this.current = second;
    this.count = 1;
  }

  /** The entries to append: "<second>:<count>", comma-separated. */
  text(): string {
    const open = `${this.current}:${this.count}`;
    return this.done === "" ? open : `${this.done},${open}`;
  }
}

/** A stored value's entries as [second, count]; malformed ones (not written by Sluice) are skipped. */
export function* pairEntries(value: string): Generator<[number, number]> {
  let start = 0;
  while (start < value.length) {
    let end = value.indexOf(",", start);
    if (end < 0) end = value.length;
    const colon = value.indexOf(":", start);
    if (colon > start && colon < end) {
      const second = Number(value.slice(start, colon));
      const count = Number(value.slice(colon + 1, end));
      if (Number.isInteger(second) && second >= 0 && second < 60 && Number.isSafeInteger(count) && count > 0)
        yield [second, count];
    }
    start = end + 1;
  }
}
