import { parseIp, type IpKey } from "@/lib/check/lists/ip-text";
import { readEntry } from "@/lib/check/lists/list-entry";
import { RangeIndex, type Range } from "@/lib/check/lists/range-index";
import { allowLimits, allowText, type PublishedLists } from "@/lib/check/lists/list-types";

// One tenant's (or the global) allow and deny lists, read once per version that changes
// them: exact addresses and subjects in hash maps, CIDR ranges in a RangeIndex. A check
// costs a Map lookup per side, plus, when its subject is an address, parsing it once and a
// binary search. Entries the validation refused (a version written by a newer server) are
// skipped, never thrown on: a check never fails on configuration.

/** What an allow match skips: null, every limit; else the limits of these names. */
export type Skip = readonly string[] | null;

/** Two skips of one subject together: everything either skips. */
export function joinSkips(a: Skip | undefined, b: Skip): Skip {
  if (a === undefined) return b;
  if (a === null || b === null) return null;
  return [...new Set([...a, ...b])].sort();
}

class Side<P> {
  readonly ips = new Map<IpKey, P>();
  readonly subjects = new Map<string, P>();
  ranges: RangeIndex<P> = new RangeIndex<P>([]);

  constructor(texts: readonly string[], values: readonly P[], join: (a: P, b: P) => P) {
    const ranges = new Map<string, Range<P>>();
    const add = <K>(map: Map<K, P>, key: K, value: P) => {
      const had = map.get(key);
      map.set(key, had === undefined ? value : join(had, value));
    };
    texts.forEach((text, i) => {
      const read = readEntry(text);
      const value = values[i] as P;
      if (!read.ok) return;
      const { entry } = read;
      if (entry.kind === "ip") add(this.ips, entry.key, value);
      else if (entry.kind === "subject") add(this.subjects, entry.text, value);
      else {
        const id = `${entry.start}/${entry.bits}`;
        const had = ranges.get(id);
        ranges.set(id, { start: entry.start, end: entry.end, value: had ? join(had.value, value) : value });
      }
    });
    this.ranges = new RangeIndex([...ranges.values()]);
  }

  get hasIps(): boolean {
    return this.ips.size > 0 || this.ranges.size > 0;
  }
}

export class ListMatcher {
  private readonly deny: Side<true>;
  private readonly allow: Side<Skip>;
  /** whether a check's subject must be read as an address for this matcher */
  readonly hasIps: boolean;

  constructor(lists: PublishedLists) {
    this.deny = new Side(
      lists.deny,
      lists.deny.map(() => true as const),
      () => true,
    );
    this.allow = new Side(lists.allow.map(allowText), lists.allow.map(allowLimits), joinSkips);
    this.hasIps = this.deny.hasIps || this.allow.hasIps;
  }

  /** Whether the deny list holds this subject (`ip`: its address key, or null). */
  denies(subject: string, ip: IpKey | null): boolean {
    const { deny } = this;
    if (deny.subjects.has(subject)) return true;
    if (ip === null) return false;
    return deny.ips.has(ip) || deny.ranges.find(ip) !== undefined;
  }

  /** What the allow list skips for this subject, joined to `into`; undefined: no match. */
  skips(subject: string, ip: IpKey | null, into: Skip | undefined): Skip | undefined {
    const { allow } = this;
    let skip = into;
    const exact = allow.subjects.get(subject);
    if (exact !== undefined) skip = joinSkips(skip, exact);
    if (ip === null) return skip;
    const single = allow.ips.get(ip);
    if (single !== undefined) skip = joinSkips(skip, single);
    allow.ranges.forEach(ip, (value) => (skip = joinSkips(skip, value)));
    return skip;
  }
}

/** A check's verdict from the lists: denied, skipping limits (allowed), or undefined: no entry met. */
export type ListVerdict = { deny: true } | { deny: false; skip: Skip } | undefined;

/** The global list then the tenant's: a deny in either wins over any allow. */
export function listVerdict(
  global: ListMatcher | null,
  tenant: ListMatcher | null,
  subject: string,
): ListVerdict {
  const ip = global?.hasIps === true || tenant?.hasIps === true ? parseIp(subject) : null;
  if (global?.denies(subject, ip) === true || tenant?.denies(subject, ip) === true) return { deny: true };
  let skip = global?.skips(subject, ip, undefined);
  if (tenant !== null) skip = tenant.skips(subject, ip, skip);
  return skip === undefined ? undefined : { deny: false, skip };
}
