import "server-only";
import { utcAt } from "@/lib/control/data/usage/utc-at";
import { Prisma } from "@/lib/generated/prisma/client";
import { DENIAL_ROWS_CAP, OTHER, type LimitDenial } from "@/lib/shared/limit-denial";

// The rejections per denying limit, stored the way the pairs are: each minute's absolute
// counts into UsageDenialMinute (a re-rolled minute overwrites itself), each hour recomputed
// from its minutes into UsageDenialHour (a re-rolled hour overwrites itself too). Minutes
// rather than increments of the hour: a minute written twice, after a crash or a lost lease,
// can never count twice, and the hour needs no Redis data that may have expired since.
// Rows name their (tenant, key, route, limit) by an id of UsageDenialSeries, as the usage
// rows do: a row is a few numbers (docs/deployment.md, its size). Called inside the rollup's
// fenced transaction (rollup-writer.ts).

export interface DenialRow extends LimitDenial {
  tenantId: string;
}

/** One minute's rows (each tenant's already capped: capDenials), absolute. */
export async function insertMinuteDenials(
  tx: Prisma.TransactionClient,
  minuteMs: number,
  rows: readonly DenialRow[],
): Promise<void> {
  if (rows.length === 0) return;
  const col = <K extends keyof DenialRow>(k: K) => rows.map((r) => r[k]);
  const dims = Prisma.sql`unnest(${col("tenantId")}::text[], ${col("keyId")}::text[], ${col("route")}::text[],
                                 ${col("name")}::text[], ${col("level")}::text[], ${col("by")}::text[]`;
  await tx.$executeRaw`
    INSERT INTO "UsageDenialSeries" ("tenantId", "keyId", "route", "limit", "level", "by")
    SELECT * FROM ${dims}) ON CONFLICT DO NOTHING`;
  await tx.$executeRaw`
    INSERT INTO "UsageDenialMinute" ("minute", "seriesId", "count")
    SELECT ${utcAt(minuteMs)}, s."id", v."count"
      FROM ${dims}, ${col("count")}::int[]) AS v("tenantId", "keyId", "route", "limit", "level", "by", "count")
      JOIN "UsageDenialSeries" s ON s."tenantId" = v."tenantId" AND s."keyId" = v."keyId" AND s."route" = v."route"
                                AND s."limit" = v."limit" AND s."level" = v."level" AND s."by" = v."by"
    ON CONFLICT ("seriesId", "minute") DO UPDATE SET "count" = EXCLUDED."count"`;
}

/** The hour's minutes summed per series, ranked within each tenant (largest first; ties by id). */
function ranked(from: Prisma.Sql, to: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    SELECT s."tenantId", s."limit", s."level", s."by", m."seriesId", sum(m."count") AS "c",
           row_number() OVER (PARTITION BY s."tenantId" ORDER BY sum(m."count") DESC, m."seriesId") AS "rank"
      FROM "UsageDenialMinute" m JOIN "UsageDenialSeries" s ON s."id" = m."seriesId"
     WHERE m."minute" >= ${from} AND m."minute" < ${to}
     GROUP BY s."tenantId", s."limit", s."level", s."by", m."seriesId"`;
}

/**
 * One hour's rows recomputed from its minutes: per tenant the DENIAL_ROWS_CAP largest
 * (key, route, limit) kept, the rest summed per limit under keyId and route OTHER (merged
 * with an OTHER row a minute already had). The hour's rows of the tenants its minutes name
 * are replaced, so each is exactly its minutes' sum (a row the cap now merges is not left
 * behind); once the minutes are dropped a re-run changes nothing.
 */
export async function writeHourDenials(tx: Prisma.TransactionClient, hourMs: number): Promise<void> {
  const [from, to] = [utcAt(hourMs), utcAt(hourMs + 3_600_000)];
  const hour = ranked(from, to);
  await tx.$executeRaw`
    INSERT INTO "UsageDenialSeries" ("tenantId", "keyId", "route", "limit", "level", "by")
    SELECT DISTINCT "tenantId", ${OTHER}, ${OTHER}, "limit", "level", "by"
      FROM (${hour}) AS r WHERE "rank" > ${DENIAL_ROWS_CAP}
    ON CONFLICT DO NOTHING`;
  await tx.$executeRaw`
    DELETE FROM "UsageDenialHour" h USING "UsageDenialSeries" s
     WHERE h."hour" = ${from} AND s."id" = h."seriesId" AND s."tenantId" IN
       (SELECT DISTINCT s2."tenantId" FROM "UsageDenialMinute" m JOIN "UsageDenialSeries" s2 ON s2."id" = m."seriesId"
         WHERE m."minute" >= ${from} AND m."minute" < ${to})`;
  await tx.$executeRaw`
    INSERT INTO "UsageDenialHour" ("hour", "seriesId", "count")
    SELECT ${from}, CASE WHEN r."rank" <= ${DENIAL_ROWS_CAP} THEN r."seriesId" ELSE o."id" END, sum(r."c")
      FROM (${hour}) AS r
      LEFT JOIN "UsageDenialSeries" o
        ON r."rank" > ${DENIAL_ROWS_CAP} AND o."tenantId" = r."tenantId" AND o."keyId" = ${OTHER}
       AND o."route" = ${OTHER} AND o."limit" = r."limit" AND o."level" = r."level" AND o."by" = r."by"
     GROUP BY 2`;
}
