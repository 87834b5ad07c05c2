// Helpers of the migration tests: the Postgres server of DATABASE_URL, throwaway databases
// on it, and the real migrate script run as a child process.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const MIGRATIONS_DIR = path.join(REPO_ROOT, "prisma", "migrations");
export const MIGRATE_SCRIPT = path.join(REPO_ROOT, "scripts", "db", "migrate.mjs");
export const CHECK_VIOLATION = "23514";

export type RunResult = { code: number | null; stdout: string; stderr: string };

export function serverUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL must name a Postgres server where tests may create databases.");
  return url;
}

export function urlForDatabase(name: string): string {
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

export async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

// The real CLI in a child process, as `npm run db:migrate` runs it.
export function runMigrate(databaseUrl: string, ...args: string[]): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--experimental-wasm-modules", "--no-warnings", MIGRATE_SCRIPT, ...args],
      { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: databaseUrl } },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export async function migrationFolders(): Promise<string[]> {
  const entries = await readdir(MIGRATIONS_DIR, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b));
}

export function freshDatabaseName(): string {
  return `sluice_mig_test_${randomBytes(5).toString("hex")}`;
}
