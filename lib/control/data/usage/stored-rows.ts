import "server-only";
import { utcAt } from "@/lib/control/data/usage/utc-at";
import { db } from "@/lib/control/data/db";
import { Prisma } from "@/lib/generated/prisma/client";
import {
  ensurePartition,
  PARTITION_GRAIN,
  partitionStart,
  type UsageTable,
} from "@/lib/control/data/usage/partitions";
import { ALL, seriesOf, writeMinute, type MinuteRow } from "@/lib/control/data/usage/rollup-writer";
import { writeInstallationRow } from "@/lib/control/data/usage/installation-series";

// The usage rows as stored, by pair of key and route: for tests and the bench, which write
// and inspect rollups without a rollup job. Every query names its tenants.

export type Level = "minute" | "hour" | "day";

const TABLE: Record<Level, UsageTable> = { minute: "UsageMinute", hour: "UsageHour", day: "UsageDay" };
const ALWAYS = (): Promise<boolean> => Promise.resolve(true);

/**
 * Writes `pairs` at one time of a level as the rollup would: minutes through writeMinute
 * (pairs kept apart), hours and days with every series the pairs add up to, the
 * installation's included.
 */
export async function writeLevel(level: Level, timeMs: number, pairs: MinuteRow[]): Promise<void> {
  const tables: UsageTable[] = level === "minute" ? ["UsageMinute", "UsageMinutePair"] : [TABLE[level]];
  for (const table of tables) await ensurePartition(table, partitionStart(PARTITION_GRAIN[table], timeMs));
  if (level === "minute") return writeMinute(timeMs, pairs, ALWAYS);
  const rows = [...pairs, ...seriesOf(pairs)];
  const col = <K extends keyof MinuteRow>(k: K) => rows.map((r) => r[k]);
  const dims = Prisma.sql`unnest(${col("tenantId")}::text[], ${col("keyId")}::text[], ${col("route")}::text[]`;
  const [name, column] =
    level === "hour"
      ? [Prisma.sql`"UsageHour"`, Prisma.sql`"hour"`]
      : [Prisma.sql`"UsageDay"`, Prisma.sql`"day"`];
  await db()
    .$executeRaw`INSERT INTO "UsageSeries" ("tenantId", "keyId", "route") SELECT * FROM ${dims}) ON CONFLICT DO NOTHING`;
  await db().$executeRaw`
    INSERT INTO ${name} (${column}, "seriesId", "allowed", "rejected", "shadowRejected", "degraded",
                         "leasesAcquired", "leasesReleased", "leasesExpired")
    SELECT ${utcAt(timeMs)}, s."id", nullif(v.a, 0), nullif(v.r, 0), nullif(v.sr, 0), nullif(v.d, 0),
           nullif(v.la, 0), nullif(v.lr, 0), nullif(v.le, 0)
      FROM ${dims}, ${col("allowed")}::int8[], ${col("rejected")}::int8[], ${col("shadowRejected")}::int8[], ${col("degraded")}::int8[],
           ${col("leasesAcquired")}::int8[], ${col("leasesReleased")}::int8[], ${col("leasesExpired")}::int8[])
           AS v("tenantId", "keyId", "route", a, r, sr, d, la, lr, le)
      JOIN "UsageSeries" s ON s."tenantId" = v."tenantId" AND s."keyId" = v."keyId" AND s."route" = v."route"`;
  await writeInstallationRow(db(), level, timeMs);
}

export interface StoredRow extends MinuteRow {
  t: number;
}

/**
 * The key x route pair rows of `tenantIds` at a level (minutes: the pairs table), oldest
 * first; `series` "totals" gives the tenant series instead.
 */
export async function storedRows(
  level: Level,
  tenantIds: string[],
  series: "pairs" | "totals" = "pairs",
): Promise<StoredRow[]> {
  const [name, column] =
    level === "minute"
      ? [series === "pairs" ? Prisma.sql`"UsageMinutePair"` : Prisma.sql`"UsageMinute"`, Prisma.sql`"minute"`]
      : level === "hour"
        ? [Prisma.sql`"UsageHour"`, Prisma.sql`"hour"`]
        : [Prisma.sql`"UsageDay"`, Prisma.sql`"day"`];
  const kind =
    series === "pairs"
      ? Prisma.sql`s."keyId" <> ${ALL} AND s."route" <> ${ALL}`
      : Prisma.sql`s."keyId" = ${ALL} AND s."route" = ${ALL}`;
  return db().$queryRaw<StoredRow[]>`
    SELECT (extract(epoch FROM m.${column}) * 1000)::float8 AS "t", s."tenantId", s."keyId", s."route",
           coalesce(m."allowed", 0)::float8 AS "allowed", coalesce(m."rejected", 0)::float8 AS "rejected",
           coalesce(m."shadowRejected", 0)::float8 AS "shadowRejected", coalesce(m."degraded", 0)::float8 AS "degraded",
           coalesce(m."leasesAcquired", 0)::float8 AS "leasesAcquired", coalesce(m."leasesReleased", 0)::float8 AS "leasesReleased",
           coalesce(m."leasesExpired", 0)::float8 AS "leasesExpired"
      FROM ${name} m JOIN "UsageSeries" s ON s."id" = m."seriesId"
     WHERE s."tenantId" = ANY(${tenantIds}::text[]) AND ${kind}
     ORDER BY 1, 3, 4`;
}

/** Removes every rollup row of `tenantIds` (tests cleaning up after themselves). */
export async function deleteTenantUsage(tenantIds: string[]): Promise<void> {
  const ids = Prisma.sql`(SELECT "id" FROM "UsageSeries" WHERE "tenantId" = ANY(${tenantIds}::text[]))`;
  await db().$executeRaw`DELETE FROM "UsageMinute" WHERE "seriesId" IN ${ids}`;
  await db().$executeRaw`DELETE FROM "UsageMinutePair" WHERE "seriesId" IN ${ids}`;
  await db().$executeRaw`DELETE FROM "UsageHour" WHERE "seriesId" IN ${ids}`;
  await db().$executeRaw`DELETE FROM "UsageDay" WHERE "seriesId" IN ${ids}`;
}
