// The three commands of migrate.mjs. Each returns the process exit code.
import path from "node:path";
import { MIGRATIONS_DIR, NO_FILTER, REPO_ROOT, withEngine } from "./engine.mjs";
import { UserError } from "./errors.mjs";
import {
  ensureLockfile,
  migrationTimestamp,
  readMigrationsList,
  slugifyMigrationName,
  writeMigration,
} from "./migrations-dir.mjs";

const relative = (file) => path.relative(REPO_ROOT, file);

// `prisma migrate deploy` is listMigrationDirectories + the engine's applyMigrations; so is
// this, which is why _prisma_migrations ends up exactly as deploy would leave it (checksum =
// sha256 of migration.sql, started/finished_at, applied_steps_count) and why two concurrent
// runs serialize on the engine's pg_advisory_lock(72707369).
export async function apply(connectionString) {
  const startedAt = Date.now();
  const migrationsList = await readMigrationsList(MIGRATIONS_DIR);
  const found = migrationsList.migrationDirectories.length;
  const { appliedMigrationNames } = await withEngine(connectionString, (engine) =>
    engine.applyMigrations({ migrationsList, filters: NO_FILTER }),
  );
  for (const name of appliedMigrationNames) console.log(`applied ${name}`);
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  const applied = appliedMigrationNames.length;
  console.log(
    applied === 0
      ? `No pending migrations (${found} in ${relative(MIGRATIONS_DIR)}), ${seconds} s.`
      : `${applied} migration${applied === 1 ? "" : "s"} applied (${found} in ${relative(MIGRATIONS_DIR)}), ${seconds} s.`,
  );
  return 0;
}

// The migration history replayed on a shadow database, diffed against schema.prisma. The
// engine's createMigration cannot be used: in the wasm build it has no way to get a shadow
// database ("PostgreSQL shadow DB must be provided through an external factory"), while
// diff from { tag: "migrations" } does use our adapter's connectToShadowDb.
export async function create(connectionString, rawName) {
  const name = slugifyMigrationName(rawName ?? "");
  if (!name) throw new UserError("Name the migration: npm run db:migration -- <name>.");
  await ensureLockfile(MIGRATIONS_DIR);
  const migrationsList = await readMigrationsList(MIGRATIONS_DIR);
  const result = await withEngine(connectionString, (engine, schemaFiles) =>
    engine.diff({
      from: { tag: "migrations", ...migrationsList },
      to: { tag: "schemaDatamodel", files: schemaFiles },
      script: true,
      exitCode: true,
      filters: NO_FILTER,
    }),
  );
  if (result.exitCode === 0) {
    console.log(
      `No changes: ${relative(MIGRATIONS_DIR)} already matches prisma/schema.prisma; nothing written.`,
    );
    return 0;
  }
  const scriptPath = await writeMigration(
    MIGRATIONS_DIR,
    `${migrationTimestamp()}_${name}`,
    result.stdout ?? "",
  );
  console.log(`Created ${relative(scriptPath)}: review it, then run npm run db:migrate.`);
  return 0;
}

// The SQL that would take the live database to schema.prisma; nothing when they agree.
// Exit code 2 on drift, as `prisma migrate diff --exit-code` does.
// Not seen by the engine, so never drift: CHECK constraints, triggers, functions.
export async function diff(connectionString) {
  const result = await withEngine(connectionString, (engine, schemaFiles) =>
    engine.diff({
      from: { tag: "schemaDatasource", files: schemaFiles, configDir: REPO_ROOT },
      to: { tag: "schemaDatamodel", files: schemaFiles },
      script: true,
      exitCode: true,
      filters: NO_FILTER,
    }),
  );
  if (result.exitCode === 0) return 0;
  process.stdout.write(result.stdout ?? "");
  return 2;
}
