// npm run soak:faults (not part of npm test): the soak on a Redis Cluster of three primaries
// and three replicas (node timeout 1.5 s), at half the measured peak for SOAK_MINUTES (default
// 10, at least 8), with faults: the primary serving the bench tenant killed (SIGKILL) and
// restarted twice, and every core saturated for a whole minute by other processes. Reports
// per minute the answers over the check timeout + 50 ms (client and server), degraded
// decisions by cause, then over-admission on a tight probe limit and usage against decisions.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { z } from "zod";
import { freshBenchDatabase } from "../../bench/database";
import { startApp, type App } from "../../bench/app-server";
import { freePort } from "../../bench/processes";
import { ClusterGroup } from "../../../tests/reliability/cluster-topology";
import { SoakPostgres } from "../stores";
import { countedUsage } from "../usage-count";
import { halfPeak } from "../half-peak";
import { runSoak } from "../run-soak";
import { faultPlan } from "./plan";
import { Probe } from "./probe";
import { grown, readServerFigures } from "./server-figures";
import { printHeader, printRow, verdictLines, type FaultRow } from "./report";

await import(new URL("../../server-only-hook.mjs", import.meta.url).href);
// after the hook: the load's stall watch is the front's (lib/check/loop-stalls.ts, server-only)
const { timedLoad } = await import("./timed-load");

const MINUTES = z.coerce
  .number()
  .int()
  .min(8)
  .max(600)
  .parse(process.env.SOAK_MINUTES ?? 10);
const CLUSTER_BASE = z.coerce
  .number()
  .int()
  .min(1024)
  .max(65_500)
  .parse(process.env.SOAK_CLUSTER_PORT ?? 65_100);
const TIMEOUT_MS = 50;
const BOUND_MS = TIMEOUT_MS + 50;
/** what a crashed primary may not have handed its replica yet, per kill (as the failover tests) */
const FORGETTABLE_PER_KILL = 50;
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const log = (text: string): void => console.log(`[soak:faults] ${text}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const cluster = new ClusterGroup(CLUSTER_BASE);
let postgres: SoakPostgres | undefined;
let app: App | undefined;

async function main(): Promise<boolean> {
  if (process.env.SOAK_SKIP_BUILD !== "1") {
    log("building the app if its sources changed");
    await promisify(execFile)("bash", ["scripts/build-if-changed.sh"], { maxBuffer: 1 << 24 });
  }
  await cluster.start();
  postgres = new SoakPostgres(join(ROOT, ".data", "soak-pg"), await freePort());
  postgres.start();
  log(`own Redis Cluster on ${CLUSTER_BASE}-${CLUSTER_BASE + 5}, own PostgreSQL on ${postgres.port}`);
  const base = new URL(postgres.url);
  base.pathname = "/sluice_soak_faults";
  const databaseUrl = await freshBenchDatabase(base.href);
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    REDIS_CLUSTER_NODES: cluster.seedList,
    REDIS_PREFIX: "",
  });
  delete process.env.REDIS_URL;
  const { seedBench, ROUTE } = await import("../../bench/seed-bench");
  const { seedProbe, PROBE_LIMIT_NAME } = await import("./probe-seed");
  const setup = await seedBench(50);
  const probeKey = await seedProbe();
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_CLUSTER_NODES: cluster.seedList,
    NODE_ENV: "production",
    SLUICE_CHECK_TIMEOUT_MS: String(TIMEOUT_MS),
  };
  app = await startApp("app", await freePort(), env, setup.token);
  const url = `${app.url}/api/check`;
  log("measuring the peak (wrk, 50 connections, 5 s)");
  const { bodies, peak, rate } = await halfPeak(url, setup.token, setup.keys, ROUTE);
  log(`peak ${peak} checks/s: running ${MINUTES} min at ${rate}/s with faults`);

  const { startConfigChurn } = await import("../config-churn");
  const since = Math.ceil(Date.now() / 60_000) * 60_000;
  await sleep(since - Date.now());
  const churn = startConfigChurn();
  const probe = new Probe(url, setup.token, probeKey, PROBE_LIMIT_NAME);
  probe.start();
  const plan = faultPlan(MINUTES, cluster);
  const rows: FaultRow[] = [];
  printHeader(BOUND_MS);
  for (let minute = 0; minute < MINUTES; minute++) {
    const before = await readServerFigures(app.url);
    const step = plan[minute];
    const fault = step?.run() ?? Promise.resolve();
    const measured = await timedLoad(url, setup.token, bodies, rate, 60, BOUND_MS);
    await fault;
    const after = await readServerFigures(app.url);
    const row: FaultRow = {
      minute: minute + 1,
      ...measured,
      late: grown(before.late, after.late),
      degraded: grown(before.degraded, after.degraded),
      events: step?.says ?? "",
    };
    rows.push(row);
    printRow(row);
  }
  const probed = await probe.stop();
  const { changes, failed } = churn.stop();
  const counted = await countedUsage(since);
  const recorder = (await readServerFigures(app.url)).usage;
  const decisions = rows.reduce((sum, r) => sum + r.decisions, 0) + probed.checks - probed.failed;
  log(`${changes} config changes applied, ${failed} refused`);
  const kills = plan.filter((step) => step?.kills).length;
  const result = verdictLines(rows, probed, decisions, counted, kills * FORGETTABLE_PER_KILL, recorder);
  console.log("");
  for (const line of result.lines) console.log(line);
  console.log(`soak:faults verdict: ${result.pass ? "PASS" : "FAIL"}`);
  return result.pass;
}

async function cleanUp(): Promise<void> {
  await app?.stop();
  await cluster.stop();
  try {
    postgres?.stop();
  } catch {
    // not running
  }
  const { closeDb } = await import("@/lib/control/data/db");
  await Promise.allSettled([closeDb()]);
}

await runSoak(main, cleanUp);
