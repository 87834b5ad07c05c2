import "server-only";
import { utcAt } from "@/lib/control/data/usage/utc-at";
import { db } from "@/lib/control/data/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Counts } from "@/lib/shared/usage-counts";
import { writeInstallationRow } from "@/lib/control/data/usage/installation-series";
import {
  insertMinuteDenials,
  writeHourDenials,
  type DenialRow,
} from "@/lib/control/data/usage/denial-writer";

// The usage DAL's writes. Rows are set to the absolute totals read from Redis (never
// incremented), so writing a minute twice leaves the same numbers. Writers serialise on one
// advisory lock and check the lease inside it: a holder that lost its lease while paused
// aborts, and a stale write can never land after a newer holder's write of that minute.

const LOCK_ID = 7_466_513_001; // arbitrary constant: "usage rollup"

export interface MinuteRow extends Counts {
  tenantId: string;
  keyId: string;
  route: string;
}

export class LeaseLost extends Error {
  override name = "LeaseLost";
}

async function fenced(
  stillHeld: () => Promise<boolean>,
  write: (tx: Prisma.TransactionClient) => Promise<void>,
) {
  await db().$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_ID}::bigint)`;
      if (!(await stillHeld())) throw new LeaseLost("the rollup lease moved to another server");
      await write(tx);
    },
    // a busy minute is tens of thousands of rows in several statements: more than the
    // default 5 s an interactive transaction may take
    { timeout: 60_000, maxWait: 10_000 },
  );
}

/**
 * The series a minute's pairs add up to: the tenant's (keyId and route "*"), each key's
 * (route "*") and each route's (keyId "*"). "*" is neither a key id (cuid) nor a route
 * (a pattern "METHOD /path", "?" or "").
 */
export const ALL = "*";

const NO_COUNTS: Counts = {
  allowed: 0,
  rejected: 0,
  shadowRejected: 0,
  degraded: 0,
  leasesAcquired: 0,
  leasesReleased: 0,
  leasesExpired: 0,
};

export function seriesOf(pairs: readonly MinuteRow[]): MinuteRow[] {
  const sums = new Map<string, MinuteRow>();
  const add = (tenantId: string, keyId: string, route: string, r: Counts) => {
    const id = `${tenantId}\u0000${keyId}\u0000${route}`;
    let row = sums.get(id);
    if (!row) sums.set(id, (row = { tenantId, keyId, route, ...NO_COUNTS }));
    row.allowed += r.allowed;
    row.rejected += r.rejected;
    row.shadowRejected += r.shadowRejected;
    row.degraded += r.degraded;
    row.leasesAcquired += r.leasesAcquired;
    row.leasesReleased += r.leasesReleased;
    row.leasesExpired += r.leasesExpired;
  };
  for (const r of pairs) {
    add(r.tenantId, r.keyId, ALL, r);
    add(r.tenantId, ALL, r.route, r);
    add(r.tenantId, ALL, ALL, r);
  }
  return [...sums.values()];
}

/** Kept for callers that size their batches by it: one statement now takes any number of rows (arrays). */
export const ROWS_PER_INSERT = 2_000;

type RowTable = "UsageMinute" | "UsageMinutePair";

/**
 * Rows of one minute into `table`, their series named in the dictionary first. Arrays as
 * parameters (unnest): any number of rows in three statements, far below the protocol's
 * 65,535 parameters. Counts of 0 are NULL.
 */
async function insertRows(
  tx: Prisma.TransactionClient,
  table: RowTable,
  minuteMs: number,
  rows: MinuteRow[],
) {
  if (rows.length === 0) return;
  const col = <K extends keyof MinuteRow>(k: K) => rows.map((r) => r[k]);
  const dims = Prisma.sql`unnest(${col("tenantId")}::text[], ${col("keyId")}::text[], ${col("route")}::text[]`;
  await tx.$executeRaw`
    INSERT INTO "UsageSeries" ("tenantId", "keyId", "route")
    SELECT * FROM ${dims}) ON CONFLICT DO NOTHING`;
  const name = table === "UsageMinute" ? Prisma.sql`"UsageMinute"` : Prisma.sql`"UsageMinutePair"`;
  await tx.$executeRaw`
    INSERT INTO ${name} ("minute", "seriesId", "allowed", "rejected", "shadowRejected", "degraded",
                         "leasesAcquired", "leasesReleased", "leasesExpired")
    SELECT ${utcAt(minuteMs)}, s."id", nullif(v.a, 0), nullif(v.r, 0), nullif(v.sr, 0), nullif(v.d, 0),
           nullif(v.la, 0), nullif(v.lr, 0), nullif(v.le, 0)
      FROM ${dims}, ${col("allowed")}::int[], ${col("rejected")}::int[], ${col("shadowRejected")}::int[], ${col("degraded")}::int[],
           ${col("leasesAcquired")}::int[], ${col("leasesReleased")}::int[], ${col("leasesExpired")}::int[])
           AS v("tenantId", "keyId", "route", a, r, sr, d, la, lr, le)
      JOIN "UsageSeries" s ON s."tenantId" = v."tenantId" AND s."keyId" = v."keyId" AND s."route" = v."route"
    ON CONFLICT ("seriesId", "minute") DO UPDATE SET
      "allowed" = EXCLUDED."allowed", "rejected" = EXCLUDED."rejected",
      "shadowRejected" = EXCLUDED."shadowRejected", "degraded" = EXCLUDED."degraded",
      "leasesAcquired" = EXCLUDED."leasesAcquired", "leasesReleased" = EXCLUDED."leasesReleased",
      "leasesExpired" = EXCLUDED."leasesExpired"`;
}

/**
 * Writes one minute, all or none: its key x route pairs into UsageMinutePair (the hour
 * rollup's source), the tenant, key and route series into UsageMinute, the
 * installation's series (installation-series.ts), which the hours and days then sum like
 * any, and the rejections per denying limit (denial-writer.ts).
 */
export async function writeMinute(
  minuteMs: number,
  rows: MinuteRow[],
  stillHeld: () => Promise<boolean>,
  denials: readonly DenialRow[] = [],
) {
  if (rows.length === 0 && denials.length === 0) return;
  await fenced(stillHeld, async (tx) => {
    await insertRows(tx, "UsageMinutePair", minuteMs, rows);
    await insertRows(tx, "UsageMinute", minuteMs, seriesOf(rows));
    await writeInstallationRow(tx, "minute", minuteMs);
    await insertMinuteDenials(tx, minuteMs, denials);
  });
}

/**
 * Recomputes one hour's rows (absolute again: idempotent): the pairs from UsageMinutePair,
 * the other series from UsageMinute, the denials from UsageDenialMinute.
 */
export async function writeHour(hourMs: number, stillHeld: () => Promise<boolean>): Promise<void> {
  const [from, to] = [utcAt(hourMs), utcAt(hourMs + 3_600_000)];
  await fenced(stillHeld, async (tx) => {
    await tx.$executeRaw`
      INSERT INTO "UsageHour" ("hour", "seriesId", "allowed", "rejected", "shadowRejected", "degraded",
                               "leasesAcquired", "leasesReleased", "leasesExpired")
      SELECT ${from}, "seriesId", nullif(sum("allowed"), 0), nullif(sum("rejected"), 0),
             nullif(sum("shadowRejected"), 0), nullif(sum("degraded"), 0),
             nullif(sum("leasesAcquired"), 0), nullif(sum("leasesReleased"), 0), nullif(sum("leasesExpired"), 0)
        FROM (SELECT * FROM "UsageMinutePair" WHERE "minute" >= ${from} AND "minute" < ${to}
              UNION ALL
              SELECT * FROM "UsageMinute" WHERE "minute" >= ${from} AND "minute" < ${to}) AS "minutes"
       GROUP BY "seriesId"
      ON CONFLICT ("seriesId", "hour") DO UPDATE SET
        "allowed" = EXCLUDED."allowed", "rejected" = EXCLUDED."rejected",
        "shadowRejected" = EXCLUDED."shadowRejected", "degraded" = EXCLUDED."degraded",
        "leasesAcquired" = EXCLUDED."leasesAcquired", "leasesReleased" = EXCLUDED."leasesReleased",
        "leasesExpired" = EXCLUDED."leasesExpired"`;
    await writeHourDenials(tx, hourMs);
  });
}

/** Recomputes one day's rows from its hours (every series; idempotent). */
export async function writeDay(dayMs: number, stillHeld: () => Promise<boolean>): Promise<void> {
  const [from, to] = [utcAt(dayMs), utcAt(dayMs + 86_400_000)];
  await fenced(stillHeld, async (tx) => {
    await tx.$executeRaw`
      INSERT INTO "UsageDay" ("day", "seriesId", "allowed", "rejected", "shadowRejected", "degraded",
                              "leasesAcquired", "leasesReleased", "leasesExpired")
      SELECT ${from}, "seriesId", sum("allowed"), sum("rejected"), sum("shadowRejected"), sum("degraded"),
             sum("leasesAcquired"), sum("leasesReleased"), sum("leasesExpired")
        FROM "UsageHour" WHERE "hour" >= ${from} AND "hour" < ${to}
       GROUP BY "seriesId"
      ON CONFLICT ("seriesId", "day") DO UPDATE SET
        "allowed" = EXCLUDED."allowed", "rejected" = EXCLUDED."rejected",
        "shadowRejected" = EXCLUDED."shadowRejected", "degraded" = EXCLUDED."degraded",
        "leasesAcquired" = EXCLUDED."leasesAcquired", "leasesReleased" = EXCLUDED."leasesReleased",
        "leasesExpired" = EXCLUDED."leasesExpired"`;
  });
}
