import "server-only";

// A minute's per-second counts of one (key, route, outcome), as the pairs hash stores them
// (keys.ts, :p:): one field per pair whose value lists "<second>:<count>" entries, appended
// by each flush of each process (lua/happend-many.lua). It replaces a field per (second, key,
// route, outcome): on varied traffic (1,000 keys x 50 routes by Zipf) that made nearly one
// field per two checks, about 110 bytes of Redis each, and a minute's hash of 40,000 fields
// took Redis 15 ms to read. The same minute as pairs is one field per pair seen in it.
// A second may appear more than once in a value (two processes, or two flushes of one
// second): readers add them up.

/**
 * A batch's minute (second -> field -> count) as the values to append: per field its
 * "<second>:<count>" entries, seconds in order.
 */
export function pairTexts(seconds: ReadonlyMap<number, ReadonlyMap<string, number>>): Map<string, string> {
  const texts = new Map<string, string>();
  for (const second of [...seconds.keys()].sort((a, b) => a - b)) {
    for (const [field, count] of seconds.get(second) ?? []) {
      const before = texts.get(field);
      texts.set(field, before === undefined ? `${second}:${count}` : `${before},${second}:${count}`);
    }
  }
  return texts;
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
