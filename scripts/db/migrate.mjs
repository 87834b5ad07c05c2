// Prisma migrations without Prisma's native schema engine (it cannot be downloaded here):
// the same engine compiled to WebAssembly, driven through the pg driver adapter.
//
//   node --experimental-wasm-modules scripts/db/migrate.mjs apply          (npm run db:migrate)
//   node --experimental-wasm-modules scripts/db/migrate.mjs create <name>  (npm run db:migration -- <name>)
//   node --experimental-wasm-modules scripts/db/migrate.mjs diff
//
// All read DATABASE_URL. `create` also needs the right to CREATE DATABASE: it replays the
// migrations on a throwaway <db>_shadow_<hex> database that it drops afterwards.
import { apply, create, diff } from "./commands.mjs";
import { describeError } from "./errors.mjs";
import { assertReachable, readDatabaseUrl } from "./pg-server.mjs";

const USAGE = "usage: migrate.mjs apply | create <name> | diff";

async function main(argv) {
  const [command, ...rest] = argv;
  if (!["apply", "create", "diff"].includes(command)) {
    console.error(USAGE);
    return 64;
  }
  const connectionString = readDatabaseUrl();
  await assertReachable(connectionString);
  if (command === "apply") return apply(connectionString);
  if (command === "create") return create(connectionString, rest.join(" "));
  return diff(connectionString);
}

let exitCode;
try {
  exitCode = await main(process.argv.slice(2));
} catch (error) {
  console.error(`migrate: ${describeError(error)}`);
  if (process.env.SLUICE_MIGRATE_DEBUG) console.error(error);
  exitCode = 1;
}
// Exit explicitly: applyMigrations races its advisory lock against a 10 s timer that it never
// clears, which would keep the process alive 10 s after the work is done. Everything of ours
// is closed by now (withEngine), and stdout/stderr writes are synchronous for files and pipes.
process.exit(exitCode);
