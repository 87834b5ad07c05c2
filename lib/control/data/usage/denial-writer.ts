import "server-only";
import { utcAt } from "@/lib/control/data/usage/utc-at";
import { Prisma } from "@/lib/generated/prisma/client";
import { DENIAL_ROWS_CAP, OTHER, type LimitDenial } from "@/lib/shared/limit-denial";

// The rejections per denying limit, stored the way the pairs are: each minute's absolute
// counts into UsageDenialMinute (a re-rolled minute overwrites itself), each hour recomputed
// from its minutes into UsageDenialHour (a re-rolled hour overwrites itself too). Minutes
// rather than increments of the hour: a minute written twice, after a crash or a lost lease,
// can never count twice, and the hour needs no Redis data that may have expired since.
// Called inside the rollup's fenced transaction (rollup-writer.ts).

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
  await tx.$executeRaw`
    INSERT INTO "UsageDenialMinute" ("minute", "tenantId", "keyId", "route", "limit", "level", "by", "count")
    SELECT ${utcAt(minuteMs)}, v.*
      FROM unnest(${col("tenantId")}::text[], ${col("keyId")}::text[], ${col("route")}::text[],
                  ${col("name")}::text[], ${col("level")}::text[], ${col("by")}::text[], ${col("count")}::int[])
           AS v("tenantId", "keyId", "route", "limit", "level", "by", "count")
    ON CONFLICT ("tenantId", "minute", "keyId", "route", "limit", "level", "by")
    DO UPDATE SET "count" = EXCLUDED."count"`;
}

/**
 * One hour's rows recomputed from its minutes: per tenant the DENIAL_ROWS_CAP largest
 * (key, route, limit) kept, the rest summed per limit under keyId and route OTHER (the
 * outer sum merges them with an OTHER row a minute already had). The hour's rows of the
 * tenants its minutes name are replaced, so each is exactly its minutes' sum (a row the cap
 * now merges is not left behind); once the minutes are dropped a re-run changes nothing.
 */
export async function writeHourDenials(tx: Prisma.TransactionClient, hourMs: number): Promise<void> {
  const [from, to] = [utcAt(hourMs), utcAt(hourMs + 3_600_000)];
  await tx.$executeRaw`
    DELETE FROM "UsageDenialHour" WHERE "hour" = ${from} AND "tenantId" IN
      (SELECT DISTINCT "tenantId" FROM "UsageDenialMinute" WHERE "minute" >= ${from} AND "minute" < ${to})`;
  await tx.$executeRaw`
    INSERT INTO "UsageDenialHour" ("hour", "tenantId", "keyId", "route", "limit", "level", "by", "count")
    SELECT ${from}, "tenantId", "k", "r", "limit", "level", "by", sum("c")
      FROM (SELECT "tenantId", "limit", "level", "by", "c",
                   CASE WHEN "rank" <= ${DENIAL_ROWS_CAP} THEN "keyId" ELSE ${OTHER} END AS "k",
                   CASE WHEN "rank" <= ${DENIAL_ROWS_CAP} THEN "route" ELSE ${OTHER} END AS "r"
              FROM (SELECT *, row_number() OVER (PARTITION BY "tenantId"
                                                 ORDER BY "c" DESC, "keyId", "route", "limit", "level", "by") AS "rank"
                      FROM (SELECT "tenantId", "keyId", "route", "limit", "level", "by", sum("count") AS "c"
                              FROM "UsageDenialMinute" WHERE "minute" >= ${from} AND "minute" < ${to}
                             GROUP BY "tenantId", "keyId", "route", "limit", "level", "by") AS "sums") AS "ranked") AS "capped"
     GROUP BY "tenantId", "k", "r", "limit", "level", "by"`;
}
