// A whole-configuration import of many tenants through importConfig, on a real database:
//   DATABASE_URL=postgresql://... npx tsx scripts/bench/config-import.ts
// BENCH_TENANTS (comma list, default "1000,10000"): each run starts from a fresh
// "<db>_import_bench" database next to DATABASE_URL's and imports that many tenants, each
// with 5 routes (one limit each), 2 tenant limits and 3 keys (BENCH_KEYS=0: none, as an
// import could not create keys before), one carrying a limit. Reports the import's wall
// time, then compilePublished alone on the state it left (the version's compile step,
// timed apart in its own transaction), then a tenant-scoped import of one tenant.
// Not part of `npm test`. Publishes to a throwaway Redis of its own.
import { freshBenchDatabase } from "./database";
import { startBenchRedis } from "./bench-redis";
import { freePort, stopAll } from "./processes";

const SIZES = (process.env.BENCH_TENANTS ?? "1000,10000").split(",").map(Number);
const WITH_KEYS = process.env.BENCH_KEYS !== "0";

interface Row {
  tenants: number;
  importMs: number;
  compileMs: number;
  oneTenantMs: number;
  keysCreated: number;
  audit: number;
}

const plan = {
  name: "bench-plan",
  limits: [{ name: "tenant-rpm", by: "tenant", algorithm: "fixed_window", limit: 1_000_000, window: "1m" }],
};

function tenantDoc(i: number, limit: number) {
  const slug = `t${String(i).padStart(6, "0")}`;
  return {
    slug,
    plan: plan.name,
    limits: [
      { name: "hour", by: "tenant", algorithm: "sliding_window", limit: limit * 60, window: "1h" },
      { name: "per-key", by: "key", algorithm: "token_bucket", limit, window: "1s", burst: limit * 2 },
    ],
    routes: Array.from({ length: 5 }, (_, r) => ({
      pattern: `GET /v1/r${r}/:id`,
      limits: [{ name: `r${r}`, by: "key", algorithm: "gcra", limit, window: "1s" }],
    })),
    keys: WITH_KEYS
      ? [
          { name: "backend", limits: [{ name: "per-key", limit: limit * 4, burst: limit * 8 }] },
          { name: "mobile" },
          { name: "batch" },
        ]
      : [],
  };
}

async function countRows(sql: string): Promise<number> {
  const { db } = await import("@/lib/control/data/db");
  const rows = await db().$queryRawUnsafe<{ n: bigint }[]>(sql);
  return Number(rows[0]?.n ?? 0);
}

async function measure(tenants: number, baseUrl: string): Promise<Row> {
  const { closeDb, db } = await import("@/lib/control/data/db");
  await closeDb(); // the previous size's connections: the database is made again
  // the same name each time, so the environment read once (lib/env.ts) stays true
  process.env.DATABASE_URL = await freshBenchDatabase(baseUrl, "import_bench");
  const { importConfig } = await import("@/lib/control/data/import-config");
  const { compileChange } = await import("@/lib/control/data/compile-published");
  const system = { kind: "system", label: "bench" } as const;
  await importConfig(system, { plans: [plan] });
  const document = { tenants: Array.from({ length: tenants }, (_, i) => tenantDoc(i, 10)) };

  let started = performance.now();
  const result = await importConfig(system, document).catch((error: unknown) => {
    const ms = (performance.now() - started).toFixed(0);
    throw new Error(`${tenants} tenants: the import failed after ${ms} ms: ${String(error).slice(0, 300)}`);
  });
  const importMs = performance.now() - started;
  if (result.configVersion === null) throw new Error("the import changed nothing");

  started = performance.now();
  // the whole compiled and compared again, rolled back (the step a global change pays)
  await db()
    .$transaction(
      async (tx) => {
        await compileChange(tx, 0, null);
        throw new Error("rollback");
      },
      { timeout: 120_000 },
    )
    .catch(() => undefined);
  const compileMs = performance.now() - started;

  started = performance.now();
  const one = await importConfig(system, { tenants: [tenantDoc(tenants >> 1, 11)] });
  const oneTenantMs = performance.now() - started;
  if (one.changes.length !== 1) throw new Error(`one tenant's import made ${one.changes.length} changes`);

  return {
    tenants,
    importMs,
    compileMs,
    oneTenantMs,
    keysCreated: "createdKeys" in result && Array.isArray(result.createdKeys) ? result.createdKeys.length : 0,
    audit: await countRows('select count(*) as n from "AuditEntry"'),
  };
}

async function main(): Promise<void> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl)
    throw new Error("DATABASE_URL must name a PostgreSQL database (its server hosts the bench's)");
  const redisPort = await freePort();
  await startBenchRedis(redisPort);
  process.env.REDIS_URL = `redis://127.0.0.1:${redisPort}`;
  process.env.SLUICE_MAX_LIMITS_TOTAL ??= "1000000";
  await import(new URL("../server-only-hook.mjs", import.meta.url).href);
  const rows: Row[] = [];
  try {
    for (const size of SIZES) {
      const row = await measure(size, baseUrl).catch((error: unknown) => {
        console.log(error instanceof Error ? error.message : String(error));
        return null;
      });
      if (row === null) continue;
      rows.push(row);
      console.log(
        `${row.tenants} tenants: import ${(row.importMs / 1000).toFixed(2)} s` +
          ` (compilePublished alone ${(row.compileMs / 1000).toFixed(2)} s),` +
          ` then one tenant ${row.oneTenantMs.toFixed(0)} ms; ${row.keysCreated} keys created, ${row.audit} audit entries`,
      );
    }
  } finally {
    const { closeDb } = await import("@/lib/control/data/db");
    await closeDb();
    const { closeRedis } = await import("@/lib/shared/redis/redis");
    await closeRedis().catch(() => undefined);
    await stopAll();
  }
}

await main();
