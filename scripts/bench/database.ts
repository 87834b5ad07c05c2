// The benchmark's own database: "<name>_bench" next to DATABASE_URL's, recreated each run
// and migrated with the project's migration runner.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

export async function freshBenchDatabase(baseUrl: string, suffix = "bench"): Promise<string> {
  const url = new URL(baseUrl);
  const name = `${url.pathname.replace(/^\//, "").replace(/_bench$/, "") || "sluice"}_${suffix}`;
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bench database name ${name} is not plain`);
  const admin = new URL(baseUrl);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.href });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  url.pathname = `/${name}`;
  await run(
    process.execPath,
    ["--experimental-wasm-modules", "--no-warnings", "scripts/db/migrate.mjs", "apply"],
    {
      env: { ...process.env, DATABASE_URL: url.href },
    },
  );
  return url.href;
}
