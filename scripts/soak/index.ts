// npm run soak (not part of npm test): SOAK_MINUTES (default 10) of checks at half the
// measured peak over many keys and subjects, a configuration change every 30 s, a Redis
// restart and a PostgreSQL restart in the middle minute; one table row a minute, then a
// verdict line. Everything runs on the soak's own stores (scripts/soak/stores.ts), the
// built server (.next/sluice/server.mjs) and spare loopback ports.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { z } from "zod";
import { freshBenchDatabase } from "../bench/database";
import { startApp, type App } from "../bench/app-server";
import { halfPeak } from "./half-peak";
import { runSoak } from "./run-soak";
import { freePort } from "../bench/processes";
import { SoakPostgres, SoakRedis } from "./stores";
import { loadFor } from "./minute";
import { sample } from "./sample";
import { printHeader, printRow, verdict, type MinuteRow } from "./report";
import { countedUsage } from "./usage-count";

// Server modules import "server-only", which throws outside Next: register the hook first.
await import(new URL("../server-only-hook.mjs", import.meta.url).href);

const MINUTES = z.coerce
  .number()
  .int()
  .min(2)
  .max(24 * 60)
  .parse(process.env.SOAK_MINUTES ?? 10);
const RETENTION_S = 300; // the shortest per-second usage retention
// Per-second usage keys live for the retention plus the rollup's read margin (15 min), so
// Redis memory grows until then and levels off only after it: judged past that horizon.
// (imported after the server-only hook, as every server module here)
const { ROLLUP_READ_MARGIN_MS } = await import("@/lib/usage/settings");
const REDIS_LEVEL_MINUTES = (RETENTION_S * 1_000 + ROLLUP_READ_MARGIN_MS) / 60_000;
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const log = (text: string): void => console.log(`[soak] ${text}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let redis: SoakRedis | undefined;
let postgres: SoakPostgres | undefined;
let app: App | undefined;

async function main(): Promise<boolean> {
  if (process.env.SOAK_SKIP_BUILD !== "1") {
    log("building the app if its sources changed");
    await promisify(execFile)("bash", ["scripts/build-if-changed.sh"], { maxBuffer: 1 << 24 });
  }
  redis = new SoakRedis(await freePort());
  await redis.start();
  postgres = new SoakPostgres(join(ROOT, ".data", "soak-pg"), await freePort());
  postgres.start();
  log(`own Redis on ${redis.port}, own PostgreSQL on ${postgres.port}; preparing the database`);
  const base = new URL(postgres.url);
  base.pathname = "/sluice_soak";
  const databaseUrl = await freshBenchDatabase(base.href);
  Object.assign(process.env, { DATABASE_URL: databaseUrl, REDIS_URL: redis.url, REDIS_PREFIX: "" });
  const { seedBench, ROUTE } = await import("../bench/seed-bench");
  const setup = await seedBench(50);
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    NODE_ENV: "production",
    SLUICE_USAGE_SECONDS_RETENTION: String(RETENTION_S),
  };
  app = await startApp("app", await freePort(), env, setup.token);
  const url = `${app.url}/api/check`;
  log("measuring the peak (wrk, 50 connections, 5 s)");
  const { bodies, peak, rate } = await halfPeak(url, setup.token, setup.keys, ROUTE);
  log(`peak ${peak} checks/s: running ${MINUTES} min at ${rate}/s`);

  const { startConfigChurn } = await import("./config-churn");
  // from a minute boundary: the usage counted from there on is the soak's alone (not the peak's)
  const since = Math.ceil(Date.now() / 60_000) * 60_000;
  await sleep(since - Date.now());
  const churn = startConfigChurn();
  const middle = Math.floor(MINUTES / 2);
  const rows: MinuteRow[] = [];
  printHeader();
  for (let minute = 0; minute < MINUTES; minute++) {
    const events: Promise<void>[] = [];
    if (minute === middle) events.push(restartRedisAt(10_000), restartPostgresAt(35_000));
    const measured = await loadFor(url, setup.token, bodies, rate, 60);
    await Promise.all(events);
    const row: MinuteRow = {
      minute: minute + 1,
      ...measured,
      ...(await sample(app.url, app.pid, redis.url, databaseUrl)),
      events: minute === middle ? "Redis restart at 10 s, PostgreSQL restart at 35 s" : "",
    };
    rows.push(row);
    printRow(row);
  }
  const { changes, failed, firstError } = churn.stop();
  const counted = await countedUsage(since);
  const decisions = rows.reduce((sum, r) => sum + r.decisions, 0);
  log(`${changes} config changes applied, ${failed} refused${failed ? ` (first: ${firstError})` : ""}`);
  const result = verdict(rows, decisions, counted, REDIS_LEVEL_MINUTES);
  console.log(`\n${result.line}`);
  return result.pass;
}

async function restartRedisAt(ms: number): Promise<void> {
  await sleep(ms);
  await redis?.stop();
  await redis?.start();
}

async function restartPostgresAt(ms: number): Promise<void> {
  await sleep(ms);
  postgres?.stop();
  postgres?.start();
}

async function cleanUp(): Promise<void> {
  await app?.stop();
  await redis?.close();
  try {
    postgres?.stop();
  } catch {
    // not running
  }
  const { closeDb } = await import("@/lib/control/data/db");
  const { closeRedis } = await import("@/lib/shared/redis/redis");
  await Promise.allSettled([closeDb(), closeRedis()]);
}

await runSoak(main, cleanUp);
