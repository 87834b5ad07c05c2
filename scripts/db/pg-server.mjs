// Plain pg helpers around DATABASE_URL: naming databases on the same server, one-off
// statements, and the reachability probe that lets the CLI fail with one clear sentence.
import pg from "pg";
import { UserError } from "./errors.mjs";

export function databaseNameOf(connectionString) {
  return decodeURIComponent(new URL(connectionString).pathname.slice(1)) || "postgres";
}

export function databaseUrlWithName(connectionString, databaseName) {
  const url = new URL(connectionString);
  url.pathname = `/${encodeURIComponent(databaseName)}`;
  return url.toString();
}

// host:port/database, never the password.
export function describeTarget(connectionString) {
  const url = new URL(connectionString);
  return `${url.hostname || "localhost"}:${url.port || 5432}/${databaseNameOf(connectionString)}`;
}

// CREATE/DROP DATABASE cannot run inside a transaction, so they get their own connection.
export async function runOnServer(connectionString, sql) {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

export function readDatabaseUrl(env = process.env) {
  const value = env.DATABASE_URL?.trim();
  if (!value) {
    throw new UserError(
      "DATABASE_URL is not set: export it (e.g. postgresql://postgres@127.0.0.1:5432/sluice) and run again.",
    );
  }
  let protocol;
  try {
    protocol = new URL(value).protocol;
  } catch {
    throw new UserError("DATABASE_URL is not a valid URL: expected postgresql://user@host:port/database.");
  }
  if (protocol !== "postgresql:" && protocol !== "postgres:") {
    throw new UserError(`DATABASE_URL must be a postgresql:// URL, not ${protocol}//.`);
  }
  return value;
}

// The engine's own connection errors are long and nested; probing first with pg gives the
// plain reason (refused, unknown database, bad password) before the engine is even loaded.
export async function assertReachable(connectionString) {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (error) {
    const reason = error?.message || error?.code || String(error);
    throw new UserError(
      `Cannot reach the database in DATABASE_URL (${describeTarget(connectionString)}): ${reason}.`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}
