// The usage storage budget on PostgreSQL: npm run bench:usage-db
// (BENCH_USAGE_HOURS: hours of minute rows, default 24; BENCH_USAGE_DAYS: days of hours and
// days, default 30). One tenant of the bench's realistic mix ("busy": 4,800 pairs of key and
// route a minute, 1,000 keys, 50 routes) is seeded in the tiered layout; the mix is ten such
// tenants (48,000 pairs a minute). Prints:
//   - bytes per row of each table, measured (pg_total_relation_size over its partitions, the
//     complete ones packed as the app's pack job leaves them), and the bytes a day and at the
//     default retention for the mix
//   - rows written a minute, and the rollup's time for a minute of the mix and for an hour
//   - the read times of the usage page's day, week and month views of the busy tenant and of
//     the operator's overview (every tenant, and "most limited" over 30 days), in the app
//     process's 1 GB heap
//   - EXPLAIN (ANALYZE, BUFFERS) of the two heaviest reads
// Goals: <= 1.5 GB a day for the mix, < 50 GB at the default retention, every view <= 300 ms.
import { Redis } from "ioredis";
import { startBenchRedis } from "./bench-redis";
import { freshBenchDatabase } from "./database";
import { freePort, stopAll } from "./processes";
import { budgetRows, printBudget, type TableBytes } from "./usage-db-budget";
import { seedUsage } from "./usage-db-seed";
import type { MinuteRow } from "@/lib/control/data/usage/rollup-writer";

const HOURS = Number(process.env.BENCH_USAGE_HOURS ?? 24);
const DAYS = Number(process.env.BENCH_USAGE_DAYS ?? 30);
const PAIRS_PER_MINUTE = 4_800;
const TENANTS = 10;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const VIEWS = {
  "day (24 h, 5-min steps)": { stepMs: 300_000, rangeMs: DAY },
  "week (7 d, 1-h steps)": { stepMs: HOUR, rangeMs: 7 * DAY },
  "month (30 d, 6-h steps)": { stepMs: 6 * HOUR, rangeMs: 30 * DAY },
} as const;

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; cpuMs: number; value: T }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const value = await work();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1_000, value };
}

async function main(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("DATABASE_URL is not set: run npm run bench:usage-db");
  const databaseUrl = await freshBenchDatabase(base.replace(/\/[^/]*$/, "/sluice_usage_db"));
  const port = await freePort();
  await startBenchRedis(port);
  const redisUrl = `redis://127.0.0.1:${port}`;
  Object.assign(process.env, { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, REDIS_PREFIX: "" });
  const now = Date.now();
  const seeded = await timed(() =>
    seedUsage(now, { hours: HOURS, days: DAYS, pairsPerMinute: PAIRS_PER_MINUTE }),
  );
  console.log(
    `seeded ${HOURS} h of minutes, ${DAYS} d of hours and days for one tenant in ${(seeded.ms / 1000).toFixed(0)} s`,
  );
  const { slug, id } = seeded.value;
  const { db } = await import("@/lib/control/data/db");
  const { partitionSizes } = await import("@/lib/control/data/usage/partitions");
  const { jobKeys } = await import("@/lib/usage/keys");
  // everything up to now rolled up: the views read PostgreSQL
  const marks = jobKeys("bench:");
  const redis = new Redis(redisUrl);
  await redis.set(marks.minutes, String(Math.floor(now / 60_000)));
  await redis.set(marks.hours, String(Math.floor(now / HOUR)));
  await redis.set(marks.days, String(Math.floor(now / DAY)));

  // complete partitions packed, as the app's pack job does once the rollup is past them
  const { packCompletePartitions } = await import("@/lib/usage/store/pack-job");
  const packed = await timed(() =>
    packCompletePartitions({ client: redis, ns: "bench:", maxPerRun: Number.MAX_SAFE_INTEGER }),
  );
  console.log(
    `packed the keys of ${packed.value.length} complete partitions in ${(packed.ms / 1000).toFixed(1)} s`,
  );

  // sizes: bytes per row of each table as seeded
  const bytes = new Map<string, TableBytes>();
  for (const p of await partitionSizes()) {
    const t = bytes.get(p.table) ?? { bytes: 0, rows: 0 };
    bytes.set(p.table, { bytes: t.bytes + p.bytes, rows: t.rows + p.rows });
  }
  const [dictionary] = await db().$queryRaw<Array<{ bytes: number; rows: number }>>`
    SELECT pg_total_relation_size('"UsageSeries"')::float8 AS "bytes", count(*)::float8 AS "rows" FROM "UsageSeries"`;
  bytes.set("UsageSeries", dictionary ?? { bytes: 0, rows: 0 });

  // the rollup: a minute of the mix (ten tenants' pairs), then an hour of the busy tenant
  const { writeMinute, writeHour } = await import("@/lib/control/data/usage/rollup-writer");
  const { ensurePartition, PARTITION_GRAIN, partitionStart } =
    await import("@/lib/control/data/usage/partitions");
  const held = () => Promise.resolve(true);
  const rows: MinuteRow[] = [];
  for (let t = 0; t < TENANTS; t++)
    for (let p = 0; p < PAIRS_PER_MINUTE; p++)
      rows.push({
        tenantId: `mix-${t}`,
        keyId: `key${p % 1000}`,
        route: `GET /v1/res${((p % 1000) + Math.floor(p / 1000)) % 50}/:id`,
        allowed: 1 + (p % 7),
        rejected: p % 2,
        shadowRejected: 0,
        degraded: 0,
        leasesAcquired: 0,
        leasesReleased: 0,
        leasesExpired: 0,
      });
  const minutes = [];
  for (let m = 1; m <= 3; m++) {
    const at = Math.floor(now / 60_000) * 60_000 + m * 60_000;
    for (const table of ["UsageMinute", "UsageMinutePair"] as const)
      await ensurePartition(table, partitionStart(PARTITION_GRAIN[table], at));
    minutes.push(await timed(() => writeMinute(at, rows, held)));
  }
  const minute = minutes[minutes.length - 1] ?? { ms: 0, cpuMs: 0 };
  const hour = await timed(() => writeHour(Math.floor(now / HOUR) * HOUR - HOUR, held));

  printBudget(budgetRows(bytes, TENANTS, PAIRS_PER_MINUTE), {
    minuteMs: minute.ms,
    minuteCpuMs: minute.cpuMs,
    hourMs: hour.ms,
    tenants: TENANTS,
  });

  // the reads, as the pages run them
  const { readCompact } = await import("@/lib/usage/read/scoped-reader");
  const { mostLimited } = await import("@/lib/usage/read/most-limited");
  const ctx = { client: redis, ns: "bench:", now, secondsRetentionMs: HOUR };
  const system = { kind: "system", label: "bench" } as const;
  const sourceOf = (await import("@/lib/usage/read/rows")).sourceFor;
  const read = (tenant: string | undefined, stepMs: number, rangeMs: number) => {
    const to = Math.ceil((now + 1) / stepMs) * stepMs;
    // as the usage page reads it: per key and route for a tenant, per tenant for the overview
    const totals = tenant === undefined ? ("tenants" as const) : ("keys-routes" as const);
    return readCompact(
      system,
      { tenant, from: to - rangeMs, to, source: sourceOf(stepMs), stepMs, totals },
      ctx,
    );
  };
  console.log("\nreads with 30 days present (first read / read again), goal <= 300 ms each\n");
  console.log("| view | busiest tenant | overview (every tenant) |");
  console.log("| --- | ---: | ---: |");
  const cell = (a: number, b: number) =>
    `${a.toFixed(0)} / ${b.toFixed(0)} ms ${Math.max(a, b) <= 300 ? "ok" : "OVER"}`;
  for (const [name, { stepMs, rangeMs }] of Object.entries(VIEWS)) {
    const one = [
      await timed(() => read(slug, stepMs, rangeMs)),
      await timed(() => read(slug, stepMs, rangeMs)),
    ];
    const all = [
      await timed(() => read(undefined, stepMs, rangeMs)),
      await timed(() => read(undefined, stepMs, rangeMs)),
    ];
    console.log(`| ${name} | ${cell(one[0]!.ms, one[1]!.ms)} | ${cell(all[0]!.ms, all[1]!.ms)} |`);
  }
  const limited = [
    await timed(() => mostLimited(system, "30d", ctx)),
    await timed(() => mostLimited(system, "30d", ctx)),
  ];
  console.log(`| most limited (30 d) | | ${cell(limited[0]!.ms, limited[1]!.ms)} |`);

  await explainHeaviest(id, now);
  redis.disconnect();
  await (await import("@/lib/shared/redis/redis")).closeRedis();
  await (await import("@/lib/control/data/db")).closeDb();
}

/** EXPLAIN (ANALYZE, BUFFERS) of the two heaviest reads of the views: their totals per key. */
async function explainHeaviest(tenantId: string, now: number): Promise<void> {
  const { db } = await import("@/lib/control/data/db");
  const { seriesFor, summedQuery } = await import("@/lib/control/data/usage/db-rows");
  const { Prisma } = await import("@/lib/generated/prisma/client");
  const hour = Math.floor(now / HOUR) * HOUR;
  const perKey = { byKey: true, byRoute: false };
  const keyIds = [...(await seriesFor(tenantId, perKey)).keys()];
  const today = Math.floor(now / DAY) * DAY;
  const plans = {
    "the month view's totals per key: whole days of the per-key series": summedQuery(
      "day",
      { from: today - 29 * DAY, to: today, grainMs: 29 * DAY, grouping: perKey },
      keyIds,
    ),
    "the day view's totals per key: a day of hours of the per-key series": summedQuery(
      "hour",
      { from: hour - 24 * HOUR, to: hour, grainMs: 24 * HOUR, grouping: perKey },
      keyIds,
    ),
  };
  for (const [name, sql] of Object.entries(plans)) {
    const plan = await db().$queryRaw<Array<{ "QUERY PLAN": string }>>(
      Prisma.sql`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`,
    );
    console.log(`\n${name}:\n`);
    // the series ids listed once each are a page of numbers: counted instead
    for (const line of plan)
      console.log(
        `    ${line["QUERY PLAN"].replace(/'\{[\d,]+\}'/g, (ids) => `'{${ids.split(",").length} ids}'`)}`,
      );
  }
}

try {
  await main();
} finally {
  await stopAll();
}
