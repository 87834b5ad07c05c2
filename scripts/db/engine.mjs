// Starting the WebAssembly schema engine on DATABASE_URL (needs node --experimental-wasm-modules
// on Node 20: the package imports its .wasm file as an ES module).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SchemaEngine } from "@prisma/schema-engine-wasm";
import { closeAllAdapters, createAdapterFactory } from "./pg-adapter.mjs";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const SCHEMA_PATH = path.join(REPO_ROOT, "prisma", "schema.prisma");
export const MIGRATIONS_DIR = path.join(REPO_ROOT, "prisma", "migrations");

// No tables or enums are managed outside Prisma (prisma.config.ts sets no tables.external).
export const NO_FILTER = { externalTables: [], externalEnums: [] };

export async function readSchemaFiles() {
  const content = await readFile(SCHEMA_PATH, "utf8");
  return [{ path: path.relative(REPO_ROOT, SCHEMA_PATH), content }];
}

// The engine logs one JSON line per tracing event; SLUICE_MIGRATE_DEBUG=1 shows them.
function engineLog(line) {
  if (process.env.SLUICE_MIGRATE_DEBUG) process.stderr.write(String(line));
}

// Runs `work(engine, schemaFiles)` and always releases the engine, its connections and any
// shadow database, so the process exits as soon as the command is done.
export async function withEngine(connectionString, work) {
  const schemaFiles = await readSchemaFiles();
  let engine;
  try {
    engine = await SchemaEngine.new(
      { datamodels: schemaFiles.map((file) => [file.path, file.content]) },
      engineLog,
      createAdapterFactory(connectionString),
    );
    return await work(engine, schemaFiles);
  } finally {
    engine?.free();
    await closeAllAdapters();
  }
}
