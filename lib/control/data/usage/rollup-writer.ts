import "server-only";
import { utcAt } from "@/lib/control/data/usage/utc-at";
import { db } from "@/lib/control/data/db";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Counts } from "@/lib/shared/usage-counts";

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
 * Rows per INSERT: a statement carries at most 65,535 bind parameters (a 16-bit count in the
 * protocol), 8 a row. One statement for a whole minute failed from 8,192 rows on (a busy
 * minute of many keys and routes), so that minute was retried, and refused, forever.
 */
export const ROWS_PER_INSERT = 2_000;

/** Writes one minute's rows, all or none (one transaction of ROWS_PER_INSERT-row statements). */
export async function writeMinute(minuteMs: number, rows: MinuteRow[], stillHeld: () => Promise<boolean>) {
  if (rows.length === 0) return;
  await fenced(stillHeld, async (tx) => {
    for (let from = 0; from < rows.length; from += ROWS_PER_INSERT) {
      const values = rows
        .slice(from, from + ROWS_PER_INSERT)
        .map(
          (r) =>
            Prisma.sql`(${utcAt(minuteMs)}, ${r.tenantId}, ${r.keyId}, ${r.route}, ${r.allowed}, ${r.rejected}, ${r.shadowRejected}, ${r.degraded})`,
        );
      await tx.$executeRaw`
        INSERT INTO "UsageMinute" ("minute", "tenantId", "keyId", "route", "allowed", "rejected", "shadowRejected", "degraded")
        VALUES ${Prisma.join(values)}
        ON CONFLICT ("tenantId", "minute", "keyId", "route") DO UPDATE SET
          "allowed" = EXCLUDED."allowed", "rejected" = EXCLUDED."rejected",
          "shadowRejected" = EXCLUDED."shadowRejected", "degraded" = EXCLUDED."degraded"`;
    }
  });
}

/** Recomputes one hour's rows from its minute rows (absolute again: idempotent). */
export async function writeHour(hourMs: number, stillHeld: () => Promise<boolean>): Promise<void> {
  await fenced(stillHeld, async (tx) => {
    await tx.$executeRaw`
      INSERT INTO "UsageHour" ("hour", "tenantId", "keyId", "route", "allowed", "rejected", "shadowRejected", "degraded")
      SELECT ${utcAt(hourMs)}, "tenantId", "keyId", "route",
        SUM("allowed"), SUM("rejected"), SUM("shadowRejected"), SUM("degraded")
      FROM "UsageMinute"
      WHERE "minute" >= ${utcAt(hourMs)} AND "minute" < ${utcAt(hourMs + 3_600_000)}
      GROUP BY "tenantId", "keyId", "route"
      ON CONFLICT ("tenantId", "hour", "keyId", "route") DO UPDATE SET
        "allowed" = EXCLUDED."allowed", "rejected" = EXCLUDED."rejected",
        "shadowRejected" = EXCLUDED."shadowRejected", "degraded" = EXCLUDED."degraded"`;
  });
}

export interface RetentionResult {
  minutes: number;
  hours: number;
}

/** Deletes rows older than the retention (every tenant: this is the job's own sweep). */
export async function deleteExpired(
  minutesBeforeMs: number,
  hoursBeforeMs: number,
): Promise<RetentionResult> {
  const minutes = await db().usageMinute.deleteMany({ where: { minute: { lt: new Date(minutesBeforeMs) } } });
  const hours = await db().usageHour.deleteMany({ where: { hour: { lt: new Date(hoursBeforeMs) } } });
  return { minutes: minutes.count, hours: hours.count };
}
