import { HOUR_MS, MINUTE_MS } from "@/lib/usage/keys";
import type { StoredSpans } from "@/lib/control/data/usage/denial-reads";

// Where each part of a range's rejections per limit is read, so none is counted twice. A
// range within the minutes Redis keeps (an hour) is read from Redis alone; a longer one takes
// hours the rollup has summed (before its hour watermark) from UsageDenialHour, minutes
// it has written but whose hour is not summed yet (up to its minute watermark) from
// UsageDenialMinute, and every later minute from Redis. Pure.

export interface DenialSpans extends StoredSpans {
  /** minutes [from, to) read from Redis */
  redis: { from: number; to: number } | null;
  /** where the counts start: the range's start unless a store does not reach back */
  since: number;
}

export interface DenialMarks {
  /** the first minute not yet in PostgreSQL (epoch minute) */
  minute: number;
  /** the first hour not yet summed (epoch hour), at most the minute mark's hour */
  hour: number;
}

const span = (from: number, to: number) => (from < to ? { from, to } : null);

/**
 * `oldestRedisMs`: the oldest minute Redis still holds. A stored hour is read whole, as the
 * tree's other counts read an edge hour (rows.ts): the range then starts at that hour.
 */
export function denialSpans(
  from: number,
  to: number,
  marks: DenialMarks,
  oldestRedisMs: number,
): DenialSpans {
  // a range Redis holds whole is read from Redis alone, to the minute
  if (from >= oldestRedisMs) return { hours: null, minutes: null, redis: span(from, to), since: from };
  const hourCut = marks.hour * HOUR_MS;
  const minuteCut = Math.max(hourCut, marks.minute * MINUTE_MS);
  const start = from < hourCut ? Math.floor(from / HOUR_MS) * HOUR_MS : from;
  const redisFrom = Math.max(start, minuteCut);
  if (redisFrom < oldestRedisMs) {
    // the rollup fell further behind than Redis keeps minutes: only what follows the gap counts
    const since = Math.max(from, oldestRedisMs);
    return { hours: null, minutes: null, redis: span(since, to), since };
  }
  return {
    hours: span(start, Math.min(to, hourCut)),
    minutes: span(Math.max(start, hourCut), Math.min(to, minuteCut)),
    redis: span(redisFrom, to),
    since: start,
  };
}
