import "server-only";
import { z } from "zod";
import { utcAt } from "@/lib/control/data/usage/utc-at";
import { db } from "@/lib/control/data/db";
import { DenyingLimit, type LimitDenial } from "@/lib/shared/limit-denial";

// The stored rejections per denying limit (denial-writer.ts) of one tenant, summed in SQL per
// (key, route, limit): a month of a busy tenant's hours comes back as its distinct rows, at
// most the cap's worth plus one row per limit. The caller names a tenant it already scoped
// (usageTenant): every query here is bound to that tenant id.

export interface StoredSpans {
  /** whole hours [from, to) from UsageDenialHour */
  hours: { from: number; to: number } | null;
  /** minutes [from, to) rolled up but whose hour is not yet: from UsageDenialMinute */
  minutes: { from: number; to: number } | null;
}

const StoredRow = z.object({
  keyId: z.string(),
  route: z.string(),
  name: DenyingLimit.shape.name,
  level: DenyingLimit.shape.level,
  by: DenyingLimit.shape.by,
  count: z.number().int().nonnegative(),
});

const NONE = { from: 0, to: 0 };

/** The tenant's stored denials of the spans, one row per (key, route, limit). */
export async function storedDenials(tenantId: string, spans: StoredSpans): Promise<LimitDenial[]> {
  if (!spans.hours && !spans.minutes) return [];
  const hours = spans.hours ?? NONE;
  const minutes = spans.minutes ?? NONE;
  const rows = await db().$queryRaw<unknown[]>`
    SELECT "keyId", "route", "limit" AS "name", "level", "by", sum("count")::float8 AS "count"
      FROM (SELECT "keyId", "route", "limit", "level", "by", "count" FROM "UsageDenialHour"
             WHERE "tenantId" = ${tenantId} AND "hour" >= ${utcAt(hours.from)} AND "hour" < ${utcAt(hours.to)}
            UNION ALL
            SELECT "keyId", "route", "limit", "level", "by", "count" FROM "UsageDenialMinute"
             WHERE "tenantId" = ${tenantId} AND "minute" >= ${utcAt(minutes.from)} AND "minute" < ${utcAt(minutes.to)}
           ) AS "denials"
     GROUP BY "keyId", "route", "limit", "level", "by"`;
  return rows.flatMap((row) => {
    const parsed = StoredRow.safeParse(row);
    // a row no recorder wrote (a level or `by` unknown to this version) is left out
    return parsed.success ? [parsed.data] : [];
  });
}

let storedSince: Promise<number | null> | null = null;

/**
 * Since when rejections per limit are stored at all: when the migration that made the
 * tables was applied (earlier hours have no rows, however much was denied then). Read once
 * per process; null when unknown (no migrations table).
 */
export function denialsStoredSince(): Promise<number | null> {
  storedSince ??= db().$queryRaw<Array<{ at: Date | null }>>`
      SELECT min("finished_at") AS "at" FROM "_prisma_migrations"
       WHERE "migration_name" = '20261215000000_limit_denials'`
    .then((rows) => rows[0]?.at?.getTime() ?? null)
    .catch(() => {
      // PostgreSQL away: asked again next time
      storedSince = null;
      return null;
    });
  return storedSince;
}
