// Drops and recreates the test database named by DATABASE_URL, so every run starts clean.
import pg from "pg";

const target = new URL(process.env.DATABASE_URL);
const name = decodeURIComponent(target.pathname.slice(1));
if (!name.endsWith("_test")) {
  console.error(`[sluice] refusing to reset "${name}": test databases end in _test.`);
  process.exit(1);
}
const admin = new URL(target.href);
admin.pathname = "/postgres";
const client = new pg.Client({ connectionString: admin.href });
await client.connect();
await client.query(
  `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
  [name],
);
await client.query(`drop database if exists "${name}"`);
await client.query(`create database "${name}"`);
await client.end();
