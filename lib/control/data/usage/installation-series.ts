import "server-only";
import { db } from "@/lib/control/data/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { utcAt } from "@/lib/control/data/usage/utc-at";

// The installation's own usage series: tenant, key and route "*", every tenant's own series
// summed (deleted tenants' past checks included: their rows stay until retention). Written
// with each minute, hour and day the rollup writes, so the usage index of 10,000 tenants
// draws its chart from one series instead of summing 10,000 per step when it is read.
// "*" is never a tenant id (a cuid). Migration 20261213000000_installation_usage made the
// series and summed the rows stored before it.

export const INSTALLATION = "*";

export type InstallationLevel = "minute" | "hour" | "day";

// identifiers from a fixed set, never from input
const TABLES = {
  minute: [Prisma.sql`"UsageMinute"`, Prisma.sql`"minute"`],
  hour: [Prisma.sql`"UsageHour"`, Prisma.sql`"hour"`],
  day: [Prisma.sql`"UsageDay"`, Prisma.sql`"day"`],
} as const;

type Runner = Pick<Prisma.TransactionClient, "$executeRaw">;

/**
 * Sets the installation's row at `timeMs` of `level` to the sum of every tenant's own series
 * stored there (absolute, so idempotent like the rollup's other writes). Summed from what is
 * stored rather than from the rows just written: a write of some tenants only (tests, the
 * bench) still leaves the sum of all.
 */
export async function writeInstallationRow(
  runner: Runner,
  level: InstallationLevel,
  timeMs: number,
): Promise<void> {
  const [name, column] = TABLES[level];
  const at = utcAt(timeMs);
  // made by the migration; again only if gone (no sequence number spent a minute)
  await runner.$executeRaw`
    INSERT INTO "UsageSeries" ("tenantId", "keyId", "route")
    SELECT '*', '*', '*' WHERE NOT EXISTS (SELECT 1 FROM "UsageSeries"
                                            WHERE "tenantId" = '*' AND "keyId" = '*' AND "route" = '*')
    ON CONFLICT DO NOTHING`;
  await runner.$executeRaw`
    INSERT INTO ${name} (${column}, "seriesId", "allowed", "rejected", "shadowRejected", "degraded",
                         "leasesAcquired", "leasesReleased", "leasesExpired")
    SELECT ${at}, i."id", nullif(sum(m."allowed"), 0), nullif(sum(m."rejected"), 0),
           nullif(sum(m."shadowRejected"), 0), nullif(sum(m."degraded"), 0),
           nullif(sum(m."leasesAcquired"), 0), nullif(sum(m."leasesReleased"), 0), nullif(sum(m."leasesExpired"), 0)
      FROM ${name} m
      -- literals, not parameters: the planner matches them to the partial index of the
      -- tenants' own series (migration 20261209000000_console_scale)
      JOIN "UsageSeries" s ON s."id" = m."seriesId" AND s."keyId" = '*' AND s."route" = '*' AND s."tenantId" <> '*'
      CROSS JOIN (SELECT "id" FROM "UsageSeries" WHERE "tenantId" = '*' AND "keyId" = '*' AND "route" = '*') i
     WHERE m.${column} = ${at}
     GROUP BY i."id"
    ON CONFLICT ("seriesId", ${column}) DO UPDATE SET
      "allowed" = EXCLUDED."allowed", "rejected" = EXCLUDED."rejected",
      "shadowRejected" = EXCLUDED."shadowRejected", "degraded" = EXCLUDED."degraded",
      "leasesAcquired" = EXCLUDED."leasesAcquired", "leasesReleased" = EXCLUDED."leasesReleased",
      "leasesExpired" = EXCLUDED."leasesExpired"`;
}

/** The installation series' id; null before any usage was rolled up. */
export async function installationSeriesId(): Promise<number | null> {
  const rows = await db().$queryRaw<Array<{ id: number }>>`
    SELECT "id" FROM "UsageSeries"
     WHERE "tenantId" = ${INSTALLATION} AND "keyId" = ${INSTALLATION} AND "route" = ${INSTALLATION}`;
  return rows[0]?.id ?? null;
}
