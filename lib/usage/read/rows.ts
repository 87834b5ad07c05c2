import "server-only";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { DAY_MS, HOUR_MS, jobKeys, MINUTE_MS, minuteOf } from "@/lib/usage/keys";
import { addOutcome, fieldsOf, leaseFieldsOf, readMinute } from "@/lib/usage/store/redis-read";
import { addLeaseTally, atExpiry } from "@/lib/usage/lease-fields";
import { ZERO_COUNTS, type UsageSource } from "@/lib/usage/types";
import {
  ALL_PAIRS,
  needsPairs,
  SeriesMemo,
  visitDbRows,
  type RowGrouping,
  type RowSpan,
  type UsageRow,
} from "@/lib/control/data/usage/db-rows";

// The one reader every usage query builds on: rows of (time, key, route, counts) at a
// resolution, each stretch of time from the store that holds it completely. Minutes before
// the rollup watermark come from PostgreSQL, later ones from Redis; hours already rolled up
// from UsageHour, days from UsageDay, the rest at the next finer resolution. Rows are handed to a visitor as they are read, summed
// per time bucket and per what the reader keeps (RowGrouping), so a reader holds what it
// shows, never the range's rows. Scoping is the caller's: tenantId is already checked.

export { ALL_PAIRS, type RowGrouping, type RowSpan } from "@/lib/control/data/usage/db-rows";

export type { UsageRow };

export interface RowContext {
  client: RedisClient;
  ns: string;
  now: number;
  secondsRetentionMs: number;
}

type Visit = (row: UsageRow) => void;

export interface Marks {
  minute: number;
  hour: number;
  day: number;
}

/** The rollup's watermarks: the first minute, hour and day not yet in PostgreSQL. */
export async function watermarks(ctx: RowContext): Promise<Marks> {
  const keys = jobKeys(ctx.ns);
  const [minute, hour, day] = await ctx.client.mget(keys.minutes, keys.hours, keys.days);
  // No rollup yet: everything Redis still holds is read from Redis.
  const m =
    minute === null || minute === undefined ? minuteOf(ctx.now - ctx.secondsRetentionMs) : Number(minute);
  const h =
    hour === null || hour === undefined ? Math.floor(m / 60) : Math.min(Number(hour), Math.floor(m / 60));
  const d =
    day === null || day === undefined ? Math.floor(h / 24) : Math.min(Number(day), Math.floor(h / 24));
  return { minute: m, hour: h, day: d };
}

/**
 * Redis' rows in [from, to), a minute hash at a time: each minute's rows (merged per
 * `grainMs` bucket and as `grouping` keeps key and route) are handed to `visit` before the
 * next minute is read, so only one minute is ever held, however many seconds and pairs.
 */
async function visitRedisRows(span: RowSpan, ctx: RowContext, visit: Visit): Promise<void> {
  const { tenantId, from, to, grainMs, grouping } = span;
  const oldest = minuteOf(ctx.now - ctx.secondsRetentionMs);
  const some = grouping.keyIds === undefined ? undefined : new Set(grouping.keyIds);
  for (let m = Math.max(minuteOf(from), oldest); m * MINUTE_MS < to && m <= minuteOf(ctx.now); m++) {
    const hash = await readMinute(ctx.client, ctx.ns, tenantId, m);
    if (!hash) continue;
    const rows = new Map<string, UsageRow>();
    // the row of a (second, key, route) the grouping keeps, or null when it leaves it out
    const rowAt = (second: number, keyId: string, route: string): UsageRow | null => {
      const exact = m * MINUTE_MS + second * 1_000;
      if (exact < from || exact >= to) return null;
      if (grouping.keyId !== undefined && keyId !== grouping.keyId) return null;
      if (some !== undefined && !some.has(keyId)) return null;
      if (grouping.route !== undefined && route !== grouping.route) return null;
      const t = Math.floor(exact / grainMs) * grainMs;
      const k = grouping.byKey ? keyId : "";
      const r = grouping.byRoute ? route : "";
      const id = `${t}|${k}|${r}`;
      let row = rows.get(id);
      if (!row) rows.set(id, (row = { t, keyId: k, route: r, ...ZERO_COUNTS }));
      return row;
    };
    for (const f of fieldsOf(hash)) {
      const row = rowAt(f.second, f.keyId, f.route);
      if (row) addOutcome(row, f.outcome, f.count);
    }
    for (const f of leaseFieldsOf(hash)) {
      // an expiry still ahead has not happened: its lease may yet be released
      if (atExpiry(f.tally) && m * MINUTE_MS + f.second * 1_000 > ctx.now) continue;
      const row = rowAt(f.second, f.keyId, f.route);
      if (row) addLeaseTally(row, f.tally, f.count);
    }
    for (const row of rows.values()) visit(row);
  }
}

/** Minutes of the span: PostgreSQL's before `split` (the rollup watermark), Redis' after. */
async function visitMinutes(
  span: RowSpan,
  ctx: RowContext,
  split: number,
  visit: Visit,
  memo: SeriesMemo,
): Promise<void> {
  const { from, to } = span;
  if (from < Math.min(to, split))
    await visitDbRows("minute", { ...span, to: Math.min(to, split) }, visit, memo);
  const recent = Math.max(from, split);
  if (recent < to) await visitRedisRows({ ...span, from: recent }, ctx, visit);
}

const UNIT_MS = { hour: HOUR_MS, day: DAY_MS } as const;

/**
 * Hours or days of the span: whole ones rolled up from UsageHour or UsageDay, the edges at the
 * next finer resolution (minutes for hours, hours for days). A reader that tells keys and
 * routes apart needs key x route pairs, which minutes keep only until their hour is rolled up:
 * for it a rolled-up edge hour is read whole from UsageHour (the range then starts at that
 * hour), never half-missing.
 */
async function visitRolledUp(
  grain: "hour" | "day",
  span: RowSpan,
  ctx: RowContext,
  marks: Marks,
  visit: Visit,
  memo: SeriesMemo,
): Promise<void> {
  const { from, to } = span;
  if (from >= to) return;
  const unit = UNIT_MS[grain];
  const rolled = marks[grain] * unit;
  const wholeEdge = grain === "hour" && needsPairs(span.grouping) && from < rolled;
  const start = (wholeEdge ? Math.floor(from / unit) : Math.ceil(from / unit)) * unit;
  // Align the rolled-up part to whole units at both ends, so a unit is never counted from two
  // tables, nor whole when the range ends inside it (the rest comes at the finer resolution).
  const split = Math.max(start, Math.min(Math.floor(to / unit) * unit, rolled));
  const finer = (part: RowSpan): Promise<void> =>
    grain === "day"
      ? visitRolledUp("hour", part, ctx, marks, visit, memo)
      : visitMinutes(part, ctx, marks.minute * MINUTE_MS, visit, memo);
  await finer({ ...span, to: Math.min(to, start) });
  if (start < split) await visitDbRows(grain, { ...span, from: start, to: split }, visit, memo);
  await finer({ ...span, from: Math.max(from, split) });
}

/**
 * The rows in [from, to) handed to `visit`, summed per `grainMs` bucket (a multiple of the
 * source's resolution: a chart's step, or the range for totals; t the bucket's start,
 * aligned to the epoch) and per key and route as `grouping` keeps them (default: both, the
 * rows of every pair). A bucket may come in more than one row (a minute from each store, a
 * query window's edge): visitors sum. Seconds come from Redis only.
 */
export async function visitRows(
  tenantId: string,
  from: number,
  to: number,
  source: UsageSource,
  ctx: RowContext,
  grainMs: number,
  visit: Visit,
  grouping: RowGrouping = ALL_PAIRS,
): Promise<void> {
  const span: RowSpan = { tenantId, from, to, grainMs: Math.max(1_000, grainMs), grouping };
  if (source === "seconds") return visitRedisRows(span, ctx, visit);
  const marks = await watermarks(ctx);
  // the tenant's series of the grouping looked up once for every stretch of the range
  const memo = new SeriesMemo();
  if (source === "minutes") return visitMinutes(span, ctx, marks.minute * MINUTE_MS, visit, memo);
  return visitRolledUp(source === "hours" ? "hour" : "day", span, ctx, marks, visit, memo);
}

/** Every row of every pair in [from, to) at the source's own resolution, as a list (tests, small ranges). */
export async function readRows(
  tenantId: string,
  from: number,
  to: number,
  source: UsageSource,
  ctx: RowContext,
): Promise<UsageRow[]> {
  const rows: UsageRow[] = [];
  const resolution = { seconds: 1_000, minutes: MINUTE_MS, hours: HOUR_MS, days: DAY_MS }[source];
  await visitRows(tenantId, from, to, source, ctx, resolution, (row) => rows.push(row));
  return rows;
}

/**
 * The store for a range's totals (no steps): whole days from UsageDay, whole hours at the
 * edges from UsageHour, their edges from minutes; the seconds stay the seconds (Redis).
 */
export function totalsSource(source: UsageSource): UsageSource {
  return source === "seconds" ? "seconds" : "days";
}

/** The coarsest store a step reads from: seconds under a minute, minutes under an hour, hours under a day. */
export function sourceFor(stepMs: number): UsageSource {
  if (stepMs < MINUTE_MS) return "seconds";
  if (stepMs < HOUR_MS) return "minutes";
  return stepMs < DAY_MS ? "hours" : "days";
}
