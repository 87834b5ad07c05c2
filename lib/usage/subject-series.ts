import "server-only";
import { randomBytes } from "node:crypto";

// Per-second check counts per subject, for the what-if replay of a subject limit
// (docs/replay.md). The seconds hashes count per key and route only. Kept in memory for the
// minute (an array of 60 counters per subject and route, so a check costs two Map lookups
// and an increment, no string built) and written every WRITE_EVERY_MS as ONE hash field per
// tenant, minute and app process: the minute's busiest SUBJECTS_PER_MINUTE subjects, and
// the checks of all others per second (not replayed, but counted).
//
// Which subjects: the first TRACKED_PER_MINUTE subject-route pairs a process sees in a
// minute are counted, and the busiest SUBJECTS_PER_MINUTE of those written. A client busy
// enough to matter sends in the minute's first seconds, so it is among them; a flood of
// one-off subjects afterwards only adds to the others' counts.
//
// Budgets: in memory at most TRACKED_PER_MINUTE subject-route pairs per tenant-minute and
// TRACKED_TOTAL per process (240 bytes each: ~10 MB with two minutes live); in Redis one
// field per tenant, minute and process of at most MAX_VALUE_BYTES (typically a few KB),
// kept as long as the seconds hashes.

export const SUBJECTS_PER_MINUTE = 50;
export const TRACKED_PER_MINUTE = 200;
export const TRACKED_TOTAL = 20_000;
export const WRITE_EVERY_MS = 15_000;
export const MAX_VALUE_BYTES = 64 * 1024;

/** One subject's checks per second on one route; `next`: the same subject on another route. */
interface Slot {
  route: string;
  counts: Uint32Array;
  next: Slot | null;
}

interface MinuteSeries {
  minute: number;
  /** the minute's first millisecond */
  startMs: number;
  /** subject -> its routes' counts: keyed by subject alone, so a check costs one lookup here */
  subjects: Map<string, Slot>;
  tracked: number;
  /** checks of subjects not tracked, per second */
  other: Uint32Array;
  dirty: boolean;
}

interface TenantSeries {
  current: MinuteSeries;
  previous: MinuteSeries | null;
  lastWrite: number;
}

export interface SeriesWrite {
  tenantId: string;
  minute: number;
  /** the process's field in the minute's hash */
  field: string;
  value: string;
}

/** The stored value: [route, subject, sparse counts][] and the others' sparse counts. */
export interface SeriesValue {
  s: Array<[string, string, string]>;
  o: string;
}

const newMinute = (minute: number): MinuteSeries => ({
  minute,
  startMs: minute * 60_000,
  subjects: new Map(),
  tracked: 0,
  other: new Uint32Array(60),
  dirty: false,
});

/** "second:" and ",second:" for each second: a flush builds one string per pair, not per second */
const FIRST = Array.from({ length: 60 }, (_, s) => `${s}:`);
const NEXT = Array.from({ length: 60 }, (_, s) => `,${s}:`);

/** "second:count" for the seconds with checks, comma-separated. */
export function sparse(counts: Uint32Array): string {
  let out = "";
  for (let s = 0; s < 60; s++) {
    const c = counts[s]!;
    if (c > 0) out += (out === "" ? FIRST[s]! : NEXT[s]!) + c;
  }
  return out;
}

export function unsparse(text: string): Array<[number, number]> {
  if (text === "") return [];
  const out: Array<[number, number]> = [];
  for (const pair of text.split(",")) {
    const [s, c] = pair.split(":").map(Number);
    if (Number.isInteger(s) && s! >= 0 && s! < 60 && Number.isSafeInteger(c) && c! > 0) out.push([s!, c!]);
  }
  return out;
}

export class SubjectSeries {
  private readonly tenants = new Map<string, TenantSeries>();
  private tracked = 0;
  private dirty = false;
  private lastTenantId = "";
  private lastTenant: TenantSeries | undefined;

  /** `writer` names this process's field (random by default: processes never overwrite each other) */
  constructor(private readonly writer = randomBytes(6).toString("hex")) {}

  add(tenantId: string, route: string, subject: string, nowMs: number): void {
    // the last tenant cached: checks come in bursts per tenant, and its Map lookup is skipped
    let tenant = tenantId === this.lastTenantId ? this.lastTenant : this.tenants.get(tenantId);
    if (!tenant) tenant = this.addTenant(tenantId, nowMs);
    this.lastTenantId = tenantId;
    this.lastTenant = tenant;
    let series = tenant.current;
    // the second from the minute's start: no minute arithmetic unless the minute changed
    let offset = nowMs - series.startMs;
    if (offset < 0 || offset >= 60_000) {
      const found = this.otherMinute(tenant, nowMs);
      if (!found) return;
      series = found;
      offset = nowMs - series.startMs;
    }
    const second = (offset / 1_000) | 0;
    series.dirty = this.dirty = true;
    const first = series.subjects.get(subject);
    let slot: Slot | undefined | null = first;
    while (slot && slot.route !== route) slot = slot.next;
    if (slot) {
      slot.counts[second]! += 1;
      return;
    }
    if (series.tracked >= TRACKED_PER_MINUTE || this.tracked >= TRACKED_TOTAL) {
      series.other[second]! += 1;
      return;
    }
    const counts = new Uint32Array(60);
    counts[second] = 1;
    series.subjects.set(subject, { route, counts, next: first ?? null });
    series.tracked++;
    this.tracked++;
  }

  private addTenant(tenantId: string, nowMs: number): TenantSeries {
    const tenant = { current: newMinute(Math.floor(nowMs / 60_000)), previous: null, lastWrite: nowMs };
    this.tenants.set(tenantId, tenant);
    return tenant;
  }

  /** The series of a check outside the tenant's current minute: a new minute, the previous one, or none. */
  private otherMinute(tenant: TenantSeries, nowMs: number): MinuteSeries | null {
    const minute = Math.floor(nowMs / 60_000);
    if (minute < tenant.current.minute) return tenant.previous?.minute === minute ? tenant.previous : null; // older than a minute: not worth it
    this.release(tenant.previous);
    tenant.previous = tenant.current;
    tenant.current = newMinute(minute);
    return tenant.current;
  }

  get pending(): boolean {
    return this.dirty;
  }

  /** The writes due: finished minutes, and current ones not written for WRITE_EVERY_MS (all with `force`). */
  drain(nowMs: number, force = false): SeriesWrite[] {
    const writes: SeriesWrite[] = [];
    const nowMinute = Math.floor(nowMs / 60_000);
    for (const [tenantId, tenant] of this.tenants) {
      for (const series of [tenant.previous, tenant.current]) {
        if (!series?.dirty) continue;
        const finished = series.minute < nowMinute;
        if (!force && !finished && nowMs - tenant.lastWrite < WRITE_EVERY_MS) continue;
        writes.push({ tenantId, minute: series.minute, field: this.writer, value: encode(series) });
        series.dirty = false;
        tenant.lastWrite = nowMs;
      }
      // a tenant quiet for two minutes: written already, so forgotten
      if (tenant.current.minute < nowMinute - 1 && !tenant.current.dirty) {
        this.release(tenant.previous);
        this.release(tenant.current);
        this.tenants.delete(tenantId);
        if (this.lastTenant === tenant) this.lastTenant = undefined;
      }
    }
    this.dirty = [...this.tenants.values()].some((t) => t.current.dirty || t.previous?.dirty);
    return writes;
  }

  private release(series: MinuteSeries | null): void {
    if (series) this.tracked -= series.tracked;
  }
}

/** The busiest subjects kept, the rest folded into the others' counts, within MAX_VALUE_BYTES. */
function encode(series: MinuteSeries): string {
  const pairs: Array<{ route: string; subject: string; counts: Uint32Array; total: number }> = [];
  for (const [subject, first] of series.subjects)
    for (let slot: Slot | null = first; slot; slot = slot.next) {
      let total = 0;
      for (let i = 0; i < 60; i++) total += slot.counts[i]!;
      pairs.push({ route: slot.route, subject, counts: slot.counts, total });
    }
  pairs.sort((a, b) => b.total - a.total);
  const other = Uint32Array.from(series.other);
  const kept: Array<[string, string, string]> = [];
  let bytes = 0;
  for (const pair of pairs) {
    // sizes in UTF-16 units: a bound on the JSON's length, enough for a budget
    const size = pair.route.length + pair.subject.length + 400;
    if (kept.length < SUBJECTS_PER_MINUTE && bytes + size <= MAX_VALUE_BYTES) {
      bytes += size;
      kept.push([pair.route, pair.subject, sparse(pair.counts)]);
    } else for (let i = 0; i < 60; i++) other[i]! += pair.counts[i]!;
  }
  const value: SeriesValue = { s: kept, o: sparse(other) };
  return JSON.stringify(value);
}
