import { execFile } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";

// The private PostgreSQL of `npm start` / `npm test` (scripts/lib/common.sh), with two
// checkouts simulated by two copies of the scripts: each gets a cluster of its own on a port
// of its own, `npm start`'s keeps PostgreSQL's durable defaults (fsync on) while the test
// cluster trades them for speed, a port held by another checkout is never shared, and
// `npm run stop` in one checkout leaves the other's server running.

const run = promisify(execFile);
const root = mkdtempSync(join(tmpdir(), "sluice-checkouts-"));
chmodSync(root, 0o755); // the postgres user must reach the data directories
const checkouts = ["a", "b"].map((name) => {
  const dir = join(root, name);
  mkdirSync(join(dir, "scripts", "lib"), { recursive: true });
  copyFileSync("scripts/lib/common.sh", join(dir, "scripts", "lib", "common.sh"));
  copyFileSync("scripts/stop.sh", join(dir, "scripts", "stop.sh"));
  return dir;
});
const [a, b] = checkouts as [string, string];
const cleanEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.SLUICE_DATA_DIR;
  if (!extra.SLUICE_PG_PORT) delete env.SLUICE_PG_PORT;
  return env;
};

/** start_private_postgres of that checkout; its port. */
async function start(
  checkout: string,
  mode: "durable" | "fast",
  extra: Record<string, string> = {},
): Promise<number> {
  const script = 'source "$1/scripts/lib/common.sh"; start_private_postgres "$2"; echo "$PG_PORT"';
  const { stdout } = await run("bash", ["-c", script, "_", checkout, mode], { env: cleanEnv(extra) });
  return Number(stdout.trim());
}

async function stop(checkout: string): Promise<void> {
  await run("bash", [join(checkout, "scripts", "stop.sh")], { env: cleanEnv() });
}

async function setting(port: number, name: string): Promise<string | null> {
  const client = new pg.Client({
    host: "127.0.0.1",
    port,
    user: "postgres",
    database: "postgres",
    connectionTimeoutMillis: 2_000,
  });
  try {
    await client.connect();
    const result = await client.query<{ value: string }>(`select current_setting($1) as value`, [name]);
    return result.rows[0]?.value ?? null;
  } catch {
    return null; // not running
  } finally {
    await client.end().catch(() => undefined);
  }
}

afterAll(async () => {
  for (const checkout of checkouts) await stop(checkout).catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
});

describe("private PostgreSQL per checkout", () => {
  it("is durable for npm start, fast for tests, never shared, and stopped only by its own checkout", async () => {
    const portA = await start(a, "durable");
    const testA = await start(a, "fast");
    const portB = await start(b, "durable");
    expect(new Set([portA, testA, portB]).size).toBe(3);
    expect(await setting(portA, "fsync")).toBe("on");
    expect(await setting(portA, "synchronous_commit")).toBe("on");
    expect(await setting(testA, "fsync")).toBe("off");
    expect(await setting(portB, "fsync")).toBe("on");
    // started again: the running server and its port, not a second one
    expect(await start(a, "durable")).toBe(portA);

    // B's test cluster told to use A's port (SLUICE_PG_PORT + 1): refuses with a sentence
    // instead of sharing A's server
    const refused = await start(b, "fast", { SLUICE_PG_PORT: String(portA - 1) }).then(
      () => "started",
      (error: { stderr?: string }) => error.stderr ?? "",
    );
    expect(refused).toMatch(
      /already serves a PostgreSQL that this checkout did not start; set SLUICE_PG_PORT/,
    );

    // npm run stop in A: A's servers stop, B's keeps serving
    await stop(a);
    expect(await setting(portA, "fsync")).toBeNull();
    expect(await setting(testA, "fsync")).toBeNull();
    expect(await setting(portB, "fsync")).toBe("on");
    await stop(b);
    expect(await setting(portB, "fsync")).toBeNull();
  }, 120_000);
});
