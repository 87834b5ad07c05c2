// npm run bench:console: the console's pages at 10, 1,000 and 10,000 tenants
// (BENCH_CONSOLE_SIZES). Per size: a fresh database and Redis, the tenants, keys, routes and
// usage of console-seed.ts (its first tenant with BUSY_KEYS keys), one built server; then each
// page, signed in as an operator
// (and the search as a tenant admin), BENCH_CONSOLE_RUNS times: the server's time to the
// first byte and to the last (median and worst), the HTML's size, and the server's RSS
// after. Goal: every page <= 500 ms in full at 10,000 tenants. BENCH_CONSOLE_PAGES, a regular
// expression, measures only the pages whose name it matches ("^(usage index|audit log)$").
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { z } from "zod";
import { startApp } from "./app-server";
import { startBenchRedis } from "./bench-redis";
import { freshBenchDatabase } from "./database";
import { freePort, stopAll, stopAllOnSignals, stopProcesses } from "./processes";
import { mb, rss } from "./rss";
import { BUSY_KEYS, seedConsole } from "./console-seed";
import { signIn, timedGet, type PageTime } from "./console-client";

const run = promisify(execFile);
const GOAL_MS = 500;
const log = (text: string) =>
  console.log(`[bench:console] ${new Date().toISOString().slice(11, 19)} ${text}`);

const Settings = z.object({
  BENCH_CONSOLE_SIZES: z
    .string()
    .regex(/^\d+(,\d+)*$/, "BENCH_CONSOLE_SIZES: must be tenant counts separated by commas, e.g. 10,1000")
    .default("10,1000,10000"),
  BENCH_CONSOLE_RUNS: z.coerce.number().int().min(1).max(50).default(5),
  BENCH_CONSOLE_PAGES: z
    .string()
    .refine(
      (pattern) => {
        try {
          new RegExp(pattern);
          return true;
        } catch {
          return false;
        }
      },
      { error: "BENCH_CONSOLE_PAGES: must be a regular expression over page names, e.g. ^audit log$" },
    )
    .optional(),
  DATABASE_URL: z.string({ error: "DATABASE_URL is not set: run npm run bench:console" }),
});

const PAGES = (last: number): Array<[string, string]> => [
  ["overview", "/"],
  ["overview, by traffic", "/?sort=traffic&dir=desc"],
  ["overview, search", "/?q=t0004"],
  ["overview, last page", `/?page=${last}`],
  ["overview, page 99999999", "/?page=99999999"],
  ["overview, 24 h", "/?range=24h"],
  ["usage index", "/usage"],
  ["search", "/search?q=key1"],
  ["tenant keys (3 keys)", "/tenants/t00001/keys"],
  [`tenant keys (${BUSY_KEYS.toLocaleString("en-US")} keys)`, "/tenants/t00000/keys"],
  ["tenant keys, search, by last use, page 2", "/tenants/t00000/keys?q=key4&sort=used&page=2"],
  ["tenant keys, by traffic", "/tenants/t00000/keys?sort=checks"],
  ["audit log", "/audit"],
  ["accounts", "/users"],
  ["tokens", "/tokens"],
  ["overrides", "/overrides"],
  ["plans", "/plans"],
];

interface Row {
  tenants: number;
  page: string;
  time: PageTime;
  rssMb: string;
}

async function measureSize(tenants: number, settings: z.infer<typeof Settings>): Promise<Row[]> {
  const redisPort = await freePort();
  const redis = await startBenchRedis(redisPort);
  const base = new URL(settings.DATABASE_URL);
  base.pathname = "/sluice_console";
  const databaseUrl = await freshBenchDatabase(base.href);
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  // the import's cap on limits in all: 10,000 tenants hold 120,000
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: "",
    SLUICE_MAX_LIMITS_TOTAL: "1000000",
  });
  const now = Date.now();
  const seedStart = performance.now();
  const accounts = await seedConsole(tenants, now);
  log(`${tenants} tenants seeded in ${Math.round((performance.now() - seedStart) / 1_000)} s`);
  // everything up to this minute rolled up: the pages read PostgreSQL, as they do an hour on
  const { Redis } = await import("ioredis");
  const { jobKeys } = await import("@/lib/usage/keys");
  const marks = jobKeys("");
  const client = new Redis(redisUrl);
  await client.set(marks.minutes, String(Math.floor(now / 60_000)));
  await client.set(marks.hours, String(Math.floor(now / 3_600_000)));
  await client.set(marks.days, String(Math.floor(now / 86_400_000)));
  client.disconnect();
  const token = `bench-console-${randomBytes(18).toString("base64url")}`;
  const appPort = await freePort();
  const app = await startApp(
    "console",
    appPort,
    {
      // the dashboard's sessions: NEXTAUTH_SECRET as npm start gives it
      NEXTAUTH_SECRET: randomBytes(32).toString("hex"),
      NEXTAUTH_URL: `http://localhost:${appPort}`,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: "",
      NODE_ENV: "production",
      SLUICE_BOOTSTRAP_TOKEN: token,
      SLUICE_MAX_LIMITS_TOTAL: "1000000",
    },
    token,
  );
  const rows: Row[] = [];
  try {
    const operator = await signIn(app.url, accounts.operator);
    const member = await signIn(app.url, accounts.member);
    const pages: Array<[string, string, string]> = [
      ...PAGES(Math.ceil(tenants / 50)).map(([name, path]): [string, string, string] => [
        name,
        path,
        operator,
      ]),
      ["search as a tenant admin", "/search?q=key1", member],
    ];
    const only = settings.BENCH_CONSOLE_PAGES === undefined ? null : new RegExp(settings.BENCH_CONSOLE_PAGES);
    for (const [name, path, cookie] of pages) {
      if (only && !only.test(name)) continue;
      await timedGet(app.url, path, cookie, 1); // warm: Next compiles nothing, but caches its modules
      const time = await timedGet(app.url, path, cookie, settings.BENCH_CONSOLE_RUNS);
      rows.push({ tenants, page: name, time, rssMb: mb(rss(app.pid).total) });
      log(`${tenants} ${name}: ${Math.round(time.fullMs)} ms`);
    }
  } finally {
    await app.stop();
    await stopProcesses([redis]);
    const { closeDb } = await import("@/lib/control/data/db");
    const { closeRedis } = await import("@/lib/shared/redis/redis");
    await closeDb();
    await closeRedis();
  }
  return rows;
}

function table(rows: Row[]): string {
  const head =
    "| tenants | page | first byte (median) | full (median) | full (worst) | goal 500 ms | HTML | status | RSS after |";
  const line = "| --: | --- | --: | --: | --: | --- | --: | --: | --: |";
  const body = rows.map((r) =>
    [
      r.tenants.toLocaleString("en-US"),
      r.page,
      `${Math.round(r.time.firstByteMs)} ms`,
      `${Math.round(r.time.fullMs)} ms`,
      `${Math.round(r.time.worstMs)} ms`,
      r.time.fullMs <= GOAL_MS ? "met" : "**missed**",
      `${Math.round(r.time.bytes / 1024)} KB`,
      String(r.time.status),
      r.rssMb,
    ].join(" | "),
  );
  return [head, line, ...body.map((b) => `| ${b} |`)].join("\n");
}

async function main(): Promise<void> {
  stopAllOnSignals();
  const settings = Settings.parse(process.env);
  if (process.env.BENCH_SKIP_BUILD !== "1") {
    log("building the app if its sources changed");
    await run("bash", ["scripts/build-if-changed.sh"], { maxBuffer: 1 << 24 });
  }
  const rows: Row[] = [];
  for (const tenants of settings.BENCH_CONSOLE_SIZES.split(",").map(Number))
    rows.push(...(await measureSize(tenants, settings)));
  console.log(`\n# bench:console (${settings.BENCH_CONSOLE_RUNS} runs a page)\n\n${table(rows)}\n`);
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => void stopAll());
