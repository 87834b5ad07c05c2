import "server-only";
import { db } from "@/lib/data/db";
import type { RedisClient } from "@/lib/redis";
import { HOUR_MS, jobKeys, MINUTE_MS, minuteOf } from "@/lib/usage/keys";
import { addOutcome, fieldsOf, readMinute } from "@/lib/usage/redis-read";
import { ZERO_COUNTS, type Counts, type UsageSource } from "@/lib/usage/types";

// The one reader every usage query builds on: rows of (time, key, route, counts) at a
// resolution, each stretch of time from the store that holds it completely. Minutes before
// the rollup watermark come from PostgreSQL, later ones from Redis; hours already rolled up
// from UsageHour, the rest as minutes. Scoping is the caller's: tenantId is already checked.

export interface UsageRow extends Counts {
  t: number;
  keyId: string;
  route: string;
}

export interface RowContext {
  client: RedisClient;
  ns: string;
  now: number;
  secondsRetentionMs: number;
}

function toNumber(value: bigint): number {
  return Number(value);
}

async function watermarks(ctx: RowContext): Promise<{ minute: number; hour: number }> {
  const keys = jobKeys(ctx.ns);
  const [minute, hour] = await Promise.all([ctx.client.get(keys.minutes), ctx.client.get(keys.hours)]);
  // No rollup yet: everything Redis still holds is read from Redis.
  const m = minute === null ? minuteOf(ctx.now - ctx.secondsRetentionMs) : Number(minute);
  return { minute: m, hour: hour === null ? Math.floor(m / 60) : Math.min(Number(hour), Math.floor(m / 60)) };
}

/**
 * Redis' rows in [from, to), a minute hash at a time: each minute's rows (merged per
 * `grainMs` bucket, key and route) are handed to `visit` before the next minute is read, so
 * only one minute is ever held, however many seconds and pairs the range has.
 */
async function visitRedisRows(
  tenantId: string,
  from: number,
  to: number,
  grainMs: number,
  ctx: RowContext,
  visit: (row: UsageRow) => void,
): Promise<void> {
  const oldest = minuteOf(ctx.now - ctx.secondsRetentionMs);
  for (let m = Math.max(minuteOf(from), oldest); m * MINUTE_MS < to && m <= minuteOf(ctx.now); m++) {
    const hash = await readMinute(ctx.client, ctx.ns, tenantId, m);
    if (!hash) continue;
    const rows = new Map<string, UsageRow>();
    for (const f of fieldsOf(hash)) {
      const exact = m * MINUTE_MS + f.second * 1_000;
      if (exact < from || exact >= to) continue;
      const t = Math.floor(exact / grainMs) * grainMs;
      const id = `${t}|${f.keyId}|${f.route}`;
      let row = rows.get(id);
      if (!row) rows.set(id, (row = { t, keyId: f.keyId, route: f.route, ...ZERO_COUNTS }));
      addOutcome(row, f.outcome, f.count);
    }
    for (const row of rows.values()) visit(row);
  }
}

async function redisRows(tenantId: string, from: number, to: number, perSecond: boolean, ctx: RowContext) {
  const rows: UsageRow[] = [];
  await visitRedisRows(tenantId, from, to, perSecond ? 1_000 : MINUTE_MS, ctx, (row) => rows.push(row));
  return rows;
}

async function minuteRowsFromDb(tenantId: string, from: number, to: number): Promise<UsageRow[]> {
  if (from >= to) return [];
  const found = await db().usageMinute.findMany({
    where: { tenantId, minute: { gte: new Date(from), lt: new Date(to) } },
  });
  return found.map((r) => ({
    t: r.minute.getTime(),
    keyId: r.keyId,
    route: r.route,
    allowed: toNumber(r.allowed),
    rejected: toNumber(r.rejected),
    shadowRejected: toNumber(r.shadowRejected),
    degraded: toNumber(r.degraded),
  }));
}

async function hourRowsFromDb(tenantId: string, from: number, to: number): Promise<UsageRow[]> {
  if (from >= to) return [];
  const found = await db().usageHour.findMany({
    where: { tenantId, hour: { gte: new Date(from), lt: new Date(to) } },
  });
  return found.map((r) => ({
    t: r.hour.getTime(),
    keyId: r.keyId,
    route: r.route,
    allowed: toNumber(r.allowed),
    rejected: toNumber(r.rejected),
    shadowRejected: toNumber(r.shadowRejected),
    degraded: toNumber(r.degraded),
  }));
}

async function minuteRows(tenantId: string, from: number, to: number, ctx: RowContext, split: number) {
  const [old, recent] = await Promise.all([
    minuteRowsFromDb(tenantId, from, Math.min(to, split)),
    Math.max(from, split) < to ? redisRows(tenantId, Math.max(from, split), to, false, ctx) : [],
  ]);
  return [...old, ...recent];
}

/** Rows in [from, to) at the source's resolution (t = start of its second, minute or hour). */
export async function readRows(
  tenantId: string,
  from: number,
  to: number,
  source: UsageSource,
  ctx: RowContext,
): Promise<UsageRow[]> {
  if (source === "seconds") return redisRows(tenantId, from, to, true, ctx);
  const marks = await watermarks(ctx);
  const minuteSplit = marks.minute * MINUTE_MS;
  if (source === "minutes") return minuteRows(tenantId, from, to, ctx, minuteSplit);
  // Align the hour part to whole hours, so an hour is never counted from both tables.
  const hourFrom = Math.ceil(from / HOUR_MS) * HOUR_MS;
  const hourSplit = Math.max(hourFrom, Math.min(to, marks.hour * HOUR_MS));
  const [head, hours, tail] = await Promise.all([
    minuteRows(tenantId, from, Math.min(to, hourFrom), ctx, minuteSplit),
    hourRowsFromDb(tenantId, hourFrom, hourSplit),
    minuteRows(tenantId, Math.max(from, hourSplit), to, ctx, minuteSplit),
  ]);
  return [...head, ...hours, ...tail];
}

/**
 * readRows' rows handed to `visit` instead of returned. From Redis (source "seconds") they
 * come a minute at a time, merged per `grainMs` (a multiple of a second: a chart's step),
 * so a reader that aggregates as it goes holds one minute of rows, not the range's.
 */
export async function visitRows(
  tenantId: string,
  from: number,
  to: number,
  source: UsageSource,
  ctx: RowContext,
  grainMs: number,
  visit: (row: UsageRow) => void,
): Promise<void> {
  if (source === "seconds") return visitRedisRows(tenantId, from, to, Math.max(1_000, grainMs), ctx, visit);
  for (const row of await readRows(tenantId, from, to, source, ctx)) visit(row);
}

/** The store a step reads from: seconds under a minute, minutes under an hour, else hours. */
export function sourceFor(stepMs: number): UsageSource {
  if (stepMs < MINUTE_MS) return "seconds";
  return stepMs < HOUR_MS ? "minutes" : "hours";
}
