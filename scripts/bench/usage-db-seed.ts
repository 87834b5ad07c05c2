// The usage rows of npm run bench:usage-db (usage-db.ts), written in SQL: one tenant, "busy",
// with `pairsPerMinute` pairs of key and route in each of `hours` + 1 hours of minutes,
// its hours summed from those minutes as the rollup writes them, and a week of older hours.
const HOUR = 3_600_000;

/** Seeds the rows; returns the tenant's slug. */
export async function seedUsage(now: number, hours: number, pairsPerMinute: number): Promise<string> {
  await import(new URL("../server-only-hook.mjs", import.meta.url).href);
  const { db } = await import("@/lib/control/data/db");
  const { importConfig } = await import("@/lib/control/data/import-config");
  const system = { kind: "system", label: "bench" } as const;
  await importConfig(system, {
    plans: [{ name: "usage-bench", limits: [] }],
    tenants: [{ slug: "busy", name: "Busy", plan: "usage-bench" }],
  });
  const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: "busy" } });
  const lastMinute = Math.floor(now / 60_000) * 60_000;
  const lastHour = Math.floor(now / HOUR) * HOUR;
  // 4,800 distinct pairs a minute: each of 1,000 keys on up to five of the 50 routes
  const pairs = `'key' || (p % 1000), 'GET /v1/res' || ((p % 1000 + p / 1000) % 50) || '/:id', 1 + (s + p) % 7, (s * p) % 2`;
  const utc = (ms: string) => `to_timestamp(${ms} / 1000.0) AT TIME ZONE 'UTC'`;
  const q = (sql: string, ...values: Array<string | number>) => db().$executeRawUnsafe(sql, ...values);
  // an hour more of minutes than the view, so the hours the view spans are complete
  await q(
    `INSERT INTO "UsageMinute" ("tenantId", "minute", "keyId", "route", "allowed", "rejected")
     SELECT $1, ${utc("($2::bigint - s * 60000)")}, ${pairs}
       FROM generate_series(1, $3::int) s, generate_series(0, ${pairsPerMinute - 1}) p`,
    tenant.id,
    lastMinute,
    (hours + 1) * 60,
  );
  // the hours as the rollup writes them: the sums of their minutes, up to the current hour
  await q(
    `INSERT INTO "UsageHour" ("tenantId", "hour", "keyId", "route", "allowed", "rejected")
     SELECT "tenantId", date_trunc('hour', "minute"), "keyId", "route", sum("allowed"), sum("rejected")
       FROM "UsageMinute" WHERE "tenantId" = $1 AND "minute" < ${utc("$2::bigint")} GROUP BY 1, 2, 3, 4`,
    tenant.id,
    lastHour,
  );
  // and the week's older hours, whose minutes have gone
  await q(
    `INSERT INTO "UsageHour" ("tenantId", "hour", "keyId", "route", "allowed", "rejected")
     SELECT $1, ${utc("($2::bigint - s * 3600000)")}, ${pairs}
       FROM generate_series(1, 7 * 24) s, generate_series(0, ${pairsPerMinute - 1}) p
      WHERE ${utc("($2::bigint - s * 3600000)")} < (SELECT min(date_trunc('hour', "minute")) FROM "UsageMinute")`,
    tenant.id,
    lastHour,
  );
  // statistics, as autovacuum keeps them on a table that grew this way
  await db().$executeRawUnsafe(`ANALYZE "UsageMinute", "UsageHour"`);
  return "busy";
}
