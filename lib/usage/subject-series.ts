import "server-only";
import { randomBytes } from "node:crypto";

// Per-second check counts per subject, for the what-if replay of a subject limit
// (docs/replay.md). The seconds hashes count per key and route only. Kept in memory for the
// minute (an array of 60 counters per subject, tenant and route, in one Map by subject for
// all tenants, so a check costs one Map lookup and an increment, no string built) and written every WRITE_EVERY_MS as ONE hash field per
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

/** One subject's checks per second on one route of one tenant; `next`: the same subject elsewhere. */
interface Slot {
  tenantId: string;
  route: string;
  counts: Uint32Array;
  /** its tenant's part of the minute (dirty flag, count of the others) */
  part: TenantMinute;
  next: Slot | null;
}

/** A tenant's part of a minute. */
interface TenantMinute {
  tracked: number;
  /** checks of subjects not tracked, per second */
  other: Uint32Array;
  dirty: boolean;
}

/**
 * One minute of every tenant: subject -> its slots, so a check costs one Map lookup (the
 * subject's) and no tenant lookup; a tenant's part is looked up only when a slot is added or
 * a check goes to the others.
 */
interface MinuteSeries {
  minute: number;
  /** the minute's first millisecond */
  startMs: number;
  subjects: Map<string, Slot>;
  tenants: Map<string, TenantMinute>;
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
  tenants: new Map(),
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
  private current: MinuteSeries | null = null;
  private previous: MinuteSeries | null = null;
  /** when each tenant's minute was last written (the current minute's every WRITE_EVERY_MS) */
  private readonly lastWrite = new Map<string, number>();
  private tracked = 0;
  private dirty = false;

  /** `writer` names this process's field (random by default: processes never overwrite each other) */
  constructor(private readonly writer = randomBytes(6).toString("hex")) {}

  add(tenantId: string, route: string, subject: string, nowMs: number): void {
    let series = this.current;
    // the second from the minute's start: no minute arithmetic unless the minute changed
    let offset = series === null ? -1 : nowMs - series.startMs;
    if (offset < 0 || offset >= 60_000) {
      series = this.otherMinute(nowMs);
      if (series === null) return;
      offset = nowMs - series.startMs;
    }
    const second = (offset / 1_000) | 0;
    this.dirty = true;
    const first = series!.subjects.get(subject);
    let slot: Slot | undefined | null = first;
    while (slot && (slot.route !== route || slot.tenantId !== tenantId)) slot = slot.next;
    if (slot) {
      slot.counts[second]! += 1;
      slot.part.dirty = true;
      return;
    }
    let part = series!.tenants.get(tenantId);
    if (part === undefined) {
      part = { tracked: 0, other: new Uint32Array(60), dirty: false };
      series!.tenants.set(tenantId, part);
    }
    part.dirty = true;
    if (part.tracked >= TRACKED_PER_MINUTE || this.tracked >= TRACKED_TOTAL) {
      part.other[second]! += 1;
      return;
    }
    const counts = new Uint32Array(60);
    counts[second] = 1;
    series!.subjects.set(subject, { tenantId, route, counts, part, next: first ?? null });
    part.tracked++;
    this.tracked++;
  }

  /** The series of a check outside the current minute: a new minute, the previous one, or none. */
  private otherMinute(nowMs: number): MinuteSeries | null {
    const minute = Math.floor(nowMs / 60_000);
    if (this.current !== null && minute < this.current.minute)
      return this.previous?.minute === minute ? this.previous : null; // older than a minute: not worth it
    this.release(this.previous);
    this.previous = this.current;
    this.current = newMinute(minute);
    return this.current;
  }

  get pending(): boolean {
    return this.dirty;
  }

  /** The writes due: finished minutes, and current ones not written for WRITE_EVERY_MS (all with `force`). */
  drain(nowMs: number, force = false): SeriesWrite[] {
    const writes: SeriesWrite[] = [];
    const nowMinute = Math.floor(nowMs / 60_000);
    let pending = false;
    for (const series of [this.previous, this.current]) {
      if (series === null) continue;
      const finished = series.minute < nowMinute;
      const due: string[] = [];
      for (const [tenantId, part] of series.tenants) {
        if (!part.dirty) continue;
        const last = this.lastWrite.get(tenantId);
        // a tenant's current minute is first written WRITE_EVERY_MS after its first check
        if (last === undefined) this.lastWrite.set(tenantId, nowMs);
        if (force || finished || (last !== undefined && nowMs - last >= WRITE_EVERY_MS)) due.push(tenantId);
        else pending = true;
      }
      if (due.length === 0) continue;
      for (const [tenantId, value] of encode(series, new Set(due))) {
        writes.push({ tenantId, minute: series.minute, field: this.writer, value });
        (series.tenants.get(tenantId) as TenantMinute).dirty = false;
        this.lastWrite.set(tenantId, nowMs);
      }
    }
    // a minute two behind is written already: forgotten (a check that late is not counted)
    if (this.previous !== null && this.previous.minute < nowMinute - 1) {
      this.release(this.previous);
      this.previous = null;
    }
    if (this.current !== null && this.current.minute < nowMinute - 1 && !pending) {
      this.release(this.current);
      this.current = null;
      this.lastWrite.clear();
    }
    this.dirty = pending;
    return writes;
  }

  private release(series: MinuteSeries | null): void {
    if (series) for (const part of series.tenants.values()) this.tracked -= part.tracked;
  }
}

/** Each due tenant's value: its busiest subjects, the rest folded into the others' counts, within MAX_VALUE_BYTES. */
function encode(series: MinuteSeries, due: Set<string>): Map<string, string> {
  type Pair = { route: string; subject: string; counts: Uint32Array; total: number };
  const byTenant = new Map<string, Pair[]>();
  for (const tenantId of due) byTenant.set(tenantId, []);
  for (const [subject, first] of series.subjects)
    for (let slot: Slot | null = first; slot; slot = slot.next) {
      const pairs = byTenant.get(slot.tenantId);
      if (pairs === undefined) continue;
      let total = 0;
      for (let i = 0; i < 60; i++) total += slot.counts[i]!;
      pairs.push({ route: slot.route, subject, counts: slot.counts, total });
    }
  const values = new Map<string, string>();
  for (const [tenantId, pairs] of byTenant) {
    pairs.sort((a, b) => b.total - a.total);
    const other = Uint32Array.from((series.tenants.get(tenantId) as TenantMinute).other);
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
    values.set(tenantId, JSON.stringify(value));
  }
  return values;
}
