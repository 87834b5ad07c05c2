import "server-only";
import { utcAt } from "@/lib/control/data/usage/utc-at";
import { db } from "@/lib/control/data/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Counts } from "@/lib/shared/usage-counts";

/** One minute or hour of one key and route, as the reads add it up. */
export interface UsageRow extends Counts {
  t: number;
  keyId: string;
  route: string;
}

// Rolled-up usage read from PostgreSQL already summed to what the reader keeps: per time
// bucket of `grainMs`, and per key and route only where it tells them apart. Each read takes
// the one kind of series that answers it (the tenant's, per key, per route, or key x route
// pairs: rollup-writer.ts), so a chart of a tenant is one row a minute, not one per pair (4,800
// on the bench's realistic mix). Queries go a window of time at a time, so no result is
// larger than a window's buckets times the tenant's series, however long the range.

export interface RowGrouping {
  /** rows keep their key (else keyId "") */
  byKey: boolean;
  /** rows keep their route (else route "") */
  byRoute: boolean;
  /** only this key's rows */
  keyId?: string;
  /** only this route's rows */
  route?: string;
  /** only these keys' rows (the keys one page of a list shows) */
  keyIds?: readonly string[];
}

export const ALL_PAIRS: RowGrouping = { byKey: true, byRoute: true };

export type DbTable = "minute" | "hour" | "day";

/** The most time one query spans: six hours of minutes, two weeks of hours, a year of days. */
const WINDOW_MS = { minute: 6 * 3_600_000, hour: 14 * 86_400_000, day: 366 * 86_400_000 } as const;

/** What one read asks for: a tenant's [from, to), summed per `grainMs` and as `grouping` keeps. */
export interface RowSpan {
  tenantId: string;
  from: number;
  to: number;
  grainMs: number;
  grouping: RowGrouping;
}

/** The grouping tells keys apart and routes apart: only key x route pair series answer it. */
export function needsPairs(grouping: RowGrouping): boolean {
  return (
    (grouping.byKey || grouping.keyId !== undefined) && (grouping.byRoute || grouping.route !== undefined)
  );
}

// identifiers from a fixed set, never from input
const TABLES = {
  minute: [Prisma.sql`"UsageMinute"`, Prisma.sql`"minute"`],
  pair: [Prisma.sql`"UsageMinutePair"`, Prisma.sql`"minute"`],
  hour: [Prisma.sql`"UsageHour"`, Prisma.sql`"hour"`],
  day: [Prisma.sql`"UsageDay"`, Prisma.sql`"day"`],
} as const;

/**
 * The one kind of series that answers the grouping (rollup-writer.ts): the tenant's, per key,
 * per route or per pair; "*" stands for every key or route.
 */
function seriesKind(grouping: RowGrouping): Prisma.Sql {
  const keyed = grouping.byKey || grouping.keyId !== undefined;
  const routed = grouping.byRoute || grouping.route !== undefined;
  const key =
    grouping.keyId !== undefined
      ? Prisma.sql`s."keyId" = ${grouping.keyId}`
      : keyed
        ? Prisma.sql`s."keyId" <> '*'`
        : Prisma.sql`s."keyId" = '*'`;
  const route =
    grouping.route !== undefined
      ? Prisma.sql`s."route" = ${grouping.route}`
      : routed
        ? Prisma.sql`s."route" <> '*'`
        : Prisma.sql`s."route" = '*'`;
  const some =
    grouping.keyIds === undefined
      ? Prisma.empty
      : Prisma.sql` AND s."keyId" = ANY(${[...grouping.keyIds]}::text[])`;
  return Prisma.sql`${key} AND ${route}${some}`;
}

/** What a series id stands for in the rows handed on: its key and route, "" where not kept. */
export type SeriesNames = Map<number, { keyId: string; route: string }>;

/**
 * The tenant's series of the one kind that answers the grouping, by id. Looked up first, on
 * their own (the dictionary's unique index, by tenant): the planner then sees the exact ids
 * the rows are read by, and reads one series through the tables' primary keys instead of
 * every row of the time range (it guessed the join's rows from the whole dictionary's).
 */
export async function seriesFor(tenantId: string, grouping: RowGrouping): Promise<SeriesNames> {
  const rows = await db().$queryRaw<Array<{ id: number; keyId: string; route: string }>>`
    SELECT s."id", s."keyId", s."route" FROM "UsageSeries" s
     WHERE s."tenantId" = ${tenantId} AND ${seriesKind(grouping)}`;
  return new Map(
    rows.map((r) => [r.id, { keyId: grouping.byKey ? r.keyId : "", route: grouping.byRoute ? r.route : "" }]),
  );
}

/**
 * The series looked up during one read (a tenant's range read in several stretches, each
 * from its table): looked up once, not per stretch. Made per read: a series created
 * meanwhile is read by the next.
 */
export class SeriesMemo {
  private readonly found = new Map<string, Promise<SeriesNames>>();

  of(tenantId: string, grouping: RowGrouping): Promise<SeriesNames> {
    const id = JSON.stringify([
      tenantId,
      grouping.byKey,
      grouping.byRoute,
      grouping.keyId,
      grouping.route,
      grouping.keyIds,
    ]);
    let names = this.found.get(id);
    if (!names) this.found.set(id, (names = seriesFor(tenantId, grouping)));
    return names;
  }
}

/** The summed rows of the series `ids` in [from, to): per `grainMs` bucket and series. */
export function summedQuery(table: DbTable, span: Omit<RowSpan, "tenantId">, ids: number[]): Prisma.Sql {
  const { from, to, grainMs, grouping } = span;
  const [name, column] = TABLES[table === "minute" && needsPairs(grouping) ? "pair" : table];
  // date_bin buckets the timestamps as they are (numeric epoch arithmetic per row took 2.5x
  // as long); the epoch is taken per bucket. Counts are below 2^53: float8 carries them
  // exactly and arrives as a number. NULL counts are 0. Grouped by the series' integer id:
  // its key and route are the dictionary's (seriesFor), not sorted as text here.
  const stride = Prisma.sql`make_interval(secs => ${grainMs / 1_000}::float8)`;
  const sum = (c: string) => Prisma.sql`coalesce(sum(m.${Prisma.raw(`"${c}"`)}), 0)::float8`;
  return Prisma.sql`
    SELECT (extract(epoch FROM "b") * 1000)::float8 AS "t", "seriesId",
           "allowed", "rejected", "shadowRejected", "degraded", "leasesAcquired", "leasesReleased", "leasesExpired"
      FROM (SELECT date_bin(${stride}, m.${column}, TIMESTAMP '1970-01-01') AS "b", m."seriesId",
                   ${sum("allowed")} AS "allowed", ${sum("rejected")} AS "rejected",
                   ${sum("shadowRejected")} AS "shadowRejected", ${sum("degraded")} AS "degraded",
                   ${sum("leasesAcquired")} AS "leasesAcquired", ${sum("leasesReleased")} AS "leasesReleased",
                   ${sum("leasesExpired")} AS "leasesExpired"
              FROM ${name} m
             WHERE m."seriesId" = ANY(${ids}::int[])
                   AND m.${column} >= ${utcAt(from)} AND m.${column} < ${utcAt(to)}
             GROUP BY 1, 2) AS "summed"`;
}

interface SummedRow extends Counts {
  t: number;
  seriesId: number;
}

/**
 * The table's rows in the span's [from, to), summed per `grainMs` bucket (t its start,
 * aligned to the epoch as the Redis rows are) and per key and route as `grouping` keeps
 * them, handed to `visit` a window at a time. A bucket cut by a window's edge comes as two
 * rows: readers sum.
 */
export async function visitDbRows(
  table: DbTable,
  span: RowSpan,
  visit: (row: UsageRow) => void,
  known?: SeriesMemo,
): Promise<void> {
  const grainMs = Math.max(1_000, Math.floor(span.grainMs));
  const window = Math.max(grainMs, Math.floor(WINDOW_MS[table] / grainMs) * grainMs);
  const series = await (known
    ? known.of(span.tenantId, span.grouping)
    : seriesFor(span.tenantId, span.grouping));
  if (series.size === 0) return;
  const ids = [...series.keys()];
  for (let start = span.from; start < span.to;) {
    const end = Math.min(span.to, (Math.floor(start / window) + 1) * window);
    const rows = await db().$queryRaw<SummedRow[]>(
      summedQuery(table, { ...span, from: start, to: end, grainMs }, ids),
    );
    for (const { seriesId, ...counts } of rows) {
      const names = series.get(seriesId);
      if (names) visit({ ...counts, ...names });
    }
    start = end;
  }
}
