// The usage rows of npm run bench:usage-db (usage-db.ts), written in SQL in the tiered layout
// (lib/data/usage/rollup-writer.ts): one tenant, "busy", with `pairsPerMinute` pairs of key
// and route every minute: `hours` of minute series (tenant, per key, per route), the last
// three hours of minute pairs (what the pair window keeps), `days` days of hours of every
// series and the same days rolled into days, as the rollup sums them.
const HOUR = 3_600_000;
const DAY = 86_400_000;

export interface SeedShape {
  hours: number;
  days: number;
  pairsPerMinute: number;
}

/** Seeds the rows; returns the tenant's slug and id. */
export async function seedUsage(now: number, shape: SeedShape): Promise<{ slug: string; id: string }> {
  await import(new URL("../server-only-hook.mjs", import.meta.url).href);
  const { db } = await import("@/lib/control/data/db");
  const { importConfig } = await import("@/lib/control/data/import-config");
  const { ensurePartition, PARTITION_GRAIN, partitionsOver } =
    await import("@/lib/control/data/usage/partitions");
  const system = { kind: "system", label: "bench" } as const;
  await importConfig(system, {
    plans: [{ name: "usage-bench", limits: [] }],
    tenants: [{ slug: "busy", name: "Busy", plan: "usage-bench" }],
  });
  const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: "busy" } });
  const lastMinute = Math.floor(now / 60_000) * 60_000;
  const lastHour = Math.floor(now / HOUR) * HOUR;
  const lastDay = Math.floor(now / DAY) * DAY;
  for (const [table, from] of [
    ["UsageMinute", lastMinute - (shape.hours + 1) * HOUR],
    ["UsageMinutePair", lastHour - 3 * HOUR],
    ["UsageHour", lastHour - shape.days * DAY],
    ["UsageDay", lastDay - shape.days * DAY],
  ] as const)
    for (const start of partitionsOver(PARTITION_GRAIN[table], from, now))
      await ensurePartition(table, start);
  const q = (sql: string, ...values: Array<string | number>) => db().$executeRawUnsafe(sql, ...values);
  // 4,800 distinct pairs a minute: each of 1,000 keys on up to five of the 50 routes
  const pairs = `SELECT p, 'key' || (p % 1000) AS k, 'GET /v1/res' || ((p % 1000 + p / 1000) % 50) || '/:id' AS r
                   FROM generate_series(0, ${shape.pairsPerMinute - 1}) p`;
  await q(
    `INSERT INTO "UsageSeries" ("tenantId", "keyId", "route")
     SELECT DISTINCT $1, kinds.k, kinds.r FROM (${pairs}) pr,
            LATERAL (VALUES (pr.k, pr.r), (pr.k, '*'), ('*', pr.r), ('*', '*')) AS kinds(k, r)`,
    tenant.id,
  );
  const utc = (ms: string) => `to_timestamp(${ms} / 1000.0) AT TIME ZONE 'UTC'`;
  // a time's rows of every kind wanted, summed from the pairs (counts from the time and pair)
  const kinds = (sets: string, time: string, scale: number) => `
    SELECT g.t, s."id" AS sid, nullif(g.a, 0) AS a, nullif(g.rj, 0) AS rj
      FROM (SELECT t, CASE WHEN GROUPING(k) = 1 THEN '*' ELSE k END AS k,
                   CASE WHEN GROUPING(r) = 1 THEN '*' ELSE r END AS r,
                   sum(${scale} * (1 + (n + p) % 7)) AS a, sum(${scale} * ((n * p) % 2)) AS rj
              FROM ${time}, (${pairs}) pr GROUP BY GROUPING SETS (${sets})) g
      JOIN "UsageSeries" s ON s."tenantId" = $1 AND s."keyId" = g.k AND s."route" = g.r`;
  const SERIES = "(t, k), (t, r), (t)";
  const EVERY = "(t, k, r), (t, k), (t, r), (t)";
  // minutes, an hour at a time (the GROUPING SETS of a whole day would spill to disk)
  for (let h = shape.hours; h >= 0; h--) {
    const minutes = `(SELECT n, ${utc(`($2::bigint - n::bigint * 60000)`)} AS t FROM generate_series(${h * 60 + 1}, ${h * 60 + 60}) n) AS ts`;
    await q(
      `INSERT INTO "UsageMinute" ("minute", "seriesId", "allowed", "rejected") ${kinds(SERIES, minutes, 1)}`,
      tenant.id,
      lastMinute,
    );
  }
  const pairMinutes = `(SELECT n, ${utc(`($2::bigint - n::bigint * 60000)`)} AS t FROM generate_series(1, 180) n) AS ts`;
  await q(
    `INSERT INTO "UsageMinutePair" ("minute", "seriesId", "allowed", "rejected") ${kinds("(t, k, r)", pairMinutes, 1)}`,
    tenant.id,
    lastMinute,
  );
  for (let d = 0; d < shape.days; d++) {
    const hours = `(SELECT n, ${utc(`($2::bigint - n::bigint * 3600000)`)} AS t FROM generate_series(${d * 24 + 1}, ${d * 24 + 24}) n) AS ts`;
    await q(
      `INSERT INTO "UsageHour" ("hour", "seriesId", "allowed", "rejected") ${kinds(EVERY, hours, 60)}`,
      tenant.id,
      lastHour,
    );
  }
  await q(
    `INSERT INTO "UsageDay" ("day", "seriesId", "allowed", "rejected")
     SELECT date_trunc('day', "hour"), "seriesId", sum("allowed"), sum("rejected") FROM "UsageHour"
      WHERE "hour" < ${utc("$1::bigint")} GROUP BY 1, 2`,
    lastDay,
  );
  // statistics, as autovacuum keeps them on tables that grew this way
  await db().$executeRawUnsafe(
    `ANALYZE "UsageSeries", "UsageMinute", "UsageMinutePair", "UsageHour", "UsageDay"`,
  );
  return { slug: "busy", id: tenant.id };
}
