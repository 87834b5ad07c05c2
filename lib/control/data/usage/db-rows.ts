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
// bucket of `grainMs`, and per key and route only where it tells them apart. A busy tenant
// has a row per (key, route) in every minute (4,800 on the bench's realistic mix), so a
// day's chart read whole was 7 million rows, past the app's heap; summed in SQL it is the
// chart's steps, or the pairs once. Queries go a window of time at a time, so no result is
// larger than a window's buckets times the tenant's pairs, however long the range.

export interface RowGrouping {
  /** rows keep their key (else keyId "") */
  byKey: boolean;
  /** rows keep their route (else route "") */
  byRoute: boolean;
  /** only this key's rows */
  keyId?: string;
  /** only this route's rows */
  route?: string;
}

export const ALL_PAIRS: RowGrouping = { byKey: true, byRoute: true };

/** The most time one query spans: six hours of minutes, two weeks of hours. */
const WINDOW_MS = { minute: 6 * 3_600_000, hour: 14 * 86_400_000 } as const;

/** What one read asks for: a tenant's [from, to), summed per `grainMs` and as `grouping` keeps. */
export interface RowSpan {
  tenantId: string;
  from: number;
  to: number;
  grainMs: number;
  grouping: RowGrouping;
}

function summedQuery(
  table: "minute" | "hour",
  { tenantId, from, to, grainMs, grouping }: RowSpan,
): Prisma.Sql {
  // identifiers from a fixed pair, never from input
  const [name, column] =
    table === "minute"
      ? [Prisma.sql`"UsageMinute"`, Prisma.sql`"minute"`]
      : [Prisma.sql`"UsageHour"`, Prisma.sql`"hour"`];
  const key = grouping.byKey ? Prisma.sql`"keyId"` : Prisma.sql`''`;
  const route = grouping.byRoute ? Prisma.sql`"route"` : Prisma.sql`''`;
  const onlyKey = grouping.keyId === undefined ? Prisma.empty : Prisma.sql`AND "keyId" = ${grouping.keyId}`;
  const onlyRoute = grouping.route === undefined ? Prisma.empty : Prisma.sql`AND "route" = ${grouping.route}`;
  // date_bin buckets the timestamps as they are (numeric epoch arithmetic per row took 2.5x
  // as long); the epoch is taken per bucket. Counts are below 2^53: float8 carries them
  // exactly and arrives as a number.
  const stride = Prisma.sql`make_interval(secs => ${grainMs / 1_000}::float8)`;
  return Prisma.sql`
    SELECT (extract(epoch FROM "b") * 1000)::float8 AS "t", "keyId", "route",
           "allowed", "rejected", "shadowRejected", "degraded"
      FROM (SELECT date_bin(${stride}, ${column}, TIMESTAMP '1970-01-01') AS "b",
                   ${key}::text AS "keyId", ${route}::text AS "route",
                   sum("allowed")::float8 AS "allowed", sum("rejected")::float8 AS "rejected",
                   sum("shadowRejected")::float8 AS "shadowRejected", sum("degraded")::float8 AS "degraded"
              FROM ${name}
             WHERE "tenantId" = ${tenantId} AND ${column} >= ${utcAt(from)} AND ${column} < ${utcAt(to)}
                   ${onlyKey} ${onlyRoute}
             GROUP BY 1, 2, 3) AS "summed"`;
}

/**
 * The table's rows in the span's [from, to), summed per `grainMs` bucket (t its start,
 * aligned to the epoch as the Redis rows are) and per key and route as `grouping` keeps
 * them, handed to `visit` a window at a time. A bucket cut by a window's edge comes as two
 * rows: readers sum.
 */
export async function visitDbRows(
  table: "minute" | "hour",
  span: RowSpan,
  visit: (row: UsageRow) => void,
): Promise<void> {
  const grainMs = Math.max(1_000, Math.floor(span.grainMs));
  const window = Math.max(grainMs, Math.floor(WINDOW_MS[table] / grainMs) * grainMs);
  for (let start = span.from; start < span.to;) {
    const end = Math.min(span.to, (Math.floor(start / window) + 1) * window);
    const rows = await db().$queryRaw<UsageRow[]>(
      summedQuery(table, { ...span, from: start, to: end, grainMs }),
    );
    for (const row of rows) visit(row);
    start = end;
  }
}
