// Reading rolled-up usage from PostgreSQL on a busy tenant: npm run bench:usage-db
// (BENCH_USAGE_HOURS: the hours of minute rows, default 24).
// The usage page's 24 h view (minutes, 5-minute steps) and 7 d view (hours, 1-hour steps)
// for one tenant of the bench's realistic mix, whose every minute has about 4,800 pairs of
// key and route (1,000 keys by Zipf, 50 routes): so a day is 7 million minute rows. Side by
// side in one run:
//   rows whole: every row of the range read (findMany) and summed in JS, as the readers did
//               before; in a child process with the app process's heap cap (1,024 MB)
//   summed:     readCompact as the page runs it now (db-rows.ts: summed in SQL, a window at a time)
// Prints time, the app heap's peak and the rows that came back, and checks both draw the same.
// Uses DATABASE_URL's server (npm run bench:usage-db starts the private one) and its own Redis.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { startBenchRedis } from "./bench-redis";
import { freshBenchDatabase } from "./database";
import { freePort, stopAll } from "./processes";
import { mb } from "./rss";
import { seedUsage } from "./usage-db-seed";

const run = promisify(execFile);
const HOURS = Number(process.env.BENCH_USAGE_HOURS ?? 24);
const PAIRS_PER_MINUTE = 4_800;
const APP_HEAP_MB = 1_024;
const HOUR = 3_600_000;
const VIEWS = {
  "24h": { source: "minutes", stepMs: 300_000, rangeMs: HOURS * HOUR },
  "7d": { source: "hours", stepMs: HOUR, rangeMs: 7 * 24 * HOUR },
} as const;
type View = keyof typeof VIEWS;

interface Measured {
  ms: number;
  peakHeapMb: number;
  rows: number;
  /** sums to compare: every step's checks, every pair's checks */
  series: Record<string, number>;
  pairs: Record<string, number>;
}

/** The heap's peak while `work` runs, sampled every 5 ms over a collected start. */
async function measure(work: () => Promise<Omit<Measured, "ms" | "peakHeapMb">>): Promise<Measured> {
  global.gc?.();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  const start = performance.now();
  const result = await work();
  const ms = performance.now() - start;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return { ms, peakHeapMb: (peak - base) / 2 ** 20, ...result };
}

/** One view read one way, in this process (the child's side). */
async function readOnce(
  view: View,
  way: string,
  tenantSlug: string,
  now: number,
  redisUrl: string,
): Promise<void> {
  await import(new URL("../server-only-hook.mjs", import.meta.url).href);
  const { db } = await import("@/lib/data/db");
  const { readCompact } = await import("@/lib/usage/scoped-reader");
  const { stepMs, rangeMs, source } = VIEWS[view];
  const to = Math.ceil((now + 1) / stepMs) * stepMs;
  const from = to - rangeMs;
  const client = new Redis(redisUrl);
  const ctx = { client, ns: "bench:", now, secondsRetentionMs: HOUR };
  const tenant = await db().tenant.findUniqueOrThrow({ where: { slug: tenantSlug } });
  const result = await measure(async () => {
    const series: Record<string, number> = {};
    const pairs: Record<string, number> = {};
    if (way === "whole") {
      // as the readers did: hours up to the hour watermark (now's hour), minutes after it
      const split = source === "minutes" ? from : Math.floor(now / HOUR) * HOUR;
      const { storedRows } = await import("@/lib/data/usage/stored-rows");
      const found = [
        ...(await storedRows("hour", [tenant.id])).filter((r) => r.t >= from && r.t < split),
        ...(await storedRows("minute", [tenant.id])).filter((r) => r.t >= split && r.t < to),
      ];
      for (const r of found) {
        const t = String(Math.floor(r.t / stepMs) * stepMs);
        series[t] = (series[t] ?? 0) + r.allowed;
        pairs[`${r.keyId} ${r.route}`] = (pairs[`${r.keyId} ${r.route}`] ?? 0) + r.allowed;
      }
      return { rows: found.length, series, pairs };
    }
    const read = await readCompact(
      { kind: "system", label: "bench" },
      { tenant: tenantSlug, from, to, source, stepMs },
      ctx,
    );
    for (const r of read.series) series[String(r.t)] = (series[String(r.t)] ?? 0) + r.allowed;
    for (const r of read.detail)
      pairs[`${r.keyId} ${r.route}`] = (pairs[`${r.keyId} ${r.route}`] ?? 0) + r.allowed;
    return { rows: read.series.length + read.detail.length, series, pairs };
  });
  console.log(JSON.stringify(result));
  client.disconnect();
  process.exit(0);
}

async function main(): Promise<void> {
  if (process.argv[2] === "read") {
    const [, , , view, way, slug, now, redisUrl] = process.argv;
    return readOnce(view as View, way as string, slug as string, Number(now), redisUrl as string);
  }
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("DATABASE_URL is not set: run npm run bench:usage-db");
  const databaseUrl = await freshBenchDatabase(base.replace(/\/[^/]*$/, "/sluice_usage_db"));
  const port = await freePort();
  await startBenchRedis(port);
  const redisUrl = `redis://127.0.0.1:${port}`;
  Object.assign(process.env, { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, REDIS_PREFIX: "" });
  const now = Date.now();
  const started = performance.now();
  const slug = await seedUsage(now, HOURS, PAIRS_PER_MINUTE);
  console.log(
    `seeded ${HOURS} h of minutes and 7 d of hours, ${PAIRS_PER_MINUTE} pairs each, in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  // everything up to now rolled up: the views read PostgreSQL
  const { jobKeys } = await import("@/lib/usage/keys");
  const marks = jobKeys("bench:");
  const redis = new Redis(redisUrl);
  await redis.set(marks.minutes, String(Math.floor(now / 60_000)));
  await redis.set(marks.hours, String(Math.floor(now / HOUR)));
  redis.disconnect();
  const rows: string[] = [];
  for (const view of Object.keys(VIEWS) as View[]) {
    const results: Record<string, Measured | string> = {};
    for (const way of ["whole", "summed"]) {
      const args = [
        `--max-old-space-size=${APP_HEAP_MB}`,
        "--expose-gc",
        "--import",
        "tsx",
        "scripts/bench/usage-db.ts",
      ];
      try {
        const { stdout } = await run(
          process.execPath,
          [...args, "read", view, way, slug, String(now), redisUrl],
          {
            env: process.env,
            maxBuffer: 1 << 26,
          },
        );
        results[way] = JSON.parse(stdout.trim().split("\n").pop() as string) as Measured;
      } catch (error) {
        const text = String((error as { stderr?: string }).stderr ?? error);
        results[way] = /heap out of memory|Allocation failed/.test(text)
          ? "out of memory"
          : `failed: ${text.slice(0, 200)}`;
      }
    }
    const cell = (m: Measured | string | undefined, f: (m: Measured) => string): string =>
      typeof m === "object" ? f(m) : String(m);
    const [whole, summed] = [results.whole, results.summed];
    const same =
      typeof whole === "object" && typeof summed === "object"
        ? JSON.stringify(sortKeys(whole.series)) === JSON.stringify(sortKeys(summed.series)) &&
          JSON.stringify(sortKeys(whole.pairs)) === JSON.stringify(sortKeys(summed.pairs))
          ? "yes"
          : "NO"
        : "-";
    rows.push(
      `| ${view === "24h" ? `${HOURS} h of minutes, 5-min steps` : "7 d of hours, 1-h steps"} | ${cell(whole, (m) => m.rows.toLocaleString("en-US"))} | ${cell(summed, (m) => m.rows.toLocaleString("en-US"))} | ` +
        `${cell(whole, (m) => `${(m.ms / 1000).toFixed(1)} s`)} | ${cell(summed, (m) => `${(m.ms / 1000).toFixed(2)} s`)} | ` +
        `${cell(whole, (m) => mb(m.peakHeapMb * 2 ** 20))} | ${cell(summed, (m) => mb(m.peakHeapMb * 2 ** 20))} | ${same} |`,
    );
  }
  console.log(
    "\nthe usage page's views of one busy tenant from PostgreSQL (rows whole: as before; summed: now)\n",
  );
  console.log(
    "| view | rows whole | rows summed | time whole | time summed | heap whole | heap summed | same sums |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const row of rows) console.log(row);
  // the config import's clients, or the process would wait on them
  await (await import("@/lib/redis")).closeRedis();
  await (await import("@/lib/data/db")).closeDb();
}

function sortKeys(record: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

try {
  await main();
} finally {
  await stopAll();
}
