import "server-only";
import { z } from "zod";
import { utcAt } from "@/lib/control/data/usage/utc-at";
import { db } from "@/lib/control/data/db";
import { DenyingLimit, type LimitDenial } from "@/lib/shared/limit-denial";

// The stored rejections per denying limit (denial-writer.ts) of one tenant. The tenant's
// series are looked up first (its rejecting key, route and limit triples: few), then their
// rows are summed in SQL by those ids, as the usage reads do (db-rows.ts: the planner then
// reads by primary key). The caller names a tenant it already scoped (usageTenant): both
// queries are bound to that tenant id.

export interface StoredSpans {
  /** whole hours [from, to) from UsageDenialHour */
  hours: { from: number; to: number } | null;
  /** minutes [from, to) rolled up but whose hour is not yet: from UsageDenialMinute */
  minutes: { from: number; to: number } | null;
}

const Series = z.object({
  id: z.number().int(),
  keyId: z.string(),
  route: z.string(),
  name: DenyingLimit.shape.name,
  level: DenyingLimit.shape.level,
  by: DenyingLimit.shape.by,
});

const NONE = { from: 0, to: 0 };

/** The tenant's stored denials of the spans, one row per (key, route, limit). */
export async function storedDenials(tenantId: string, spans: StoredSpans): Promise<LimitDenial[]> {
  if (!spans.hours && !spans.minutes) return [];
  const series = new Map<number, z.infer<typeof Series>>();
  const found = await db().$queryRaw<unknown[]>`
    SELECT "id", "keyId", "route", "limit" AS "name", "level", "by"
      FROM "UsageDenialSeries" WHERE "tenantId" = ${tenantId}`;
  for (const row of found) {
    const parsed = Series.safeParse(row);
    // a series no recorder wrote (a level or `by` unknown to this version) is left out
    if (parsed.success) series.set(parsed.data.id, parsed.data);
  }
  if (series.size === 0) return [];
  const ids = [...series.keys()];
  const hours = spans.hours ?? NONE;
  const minutes = spans.minutes ?? NONE;
  const sums = await db().$queryRaw<Array<{ seriesId: number; count: number }>>`
    SELECT "seriesId", sum("count")::float8 AS "count"
      FROM (SELECT "seriesId", "count" FROM "UsageDenialHour"
             WHERE "seriesId" = ANY(${ids}::int[]) AND "hour" >= ${utcAt(hours.from)} AND "hour" < ${utcAt(hours.to)}
            UNION ALL
            SELECT "seriesId", "count" FROM "UsageDenialMinute"
             WHERE "seriesId" = ANY(${ids}::int[]) AND "minute" >= ${utcAt(minutes.from)} AND "minute" < ${utcAt(minutes.to)}
           ) AS "denials"
     GROUP BY "seriesId"`;
  return sums.flatMap(({ seriesId, count }) => {
    const s = series.get(seriesId);
    return s ? [{ keyId: s.keyId, route: s.route, name: s.name, level: s.level, by: s.by, count }] : [];
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
