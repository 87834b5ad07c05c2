// The driver adapter the WebAssembly schema engine talks to Postgres through.
//
// `new PrismaPg({ connectionString })` alone is not usable for migrations (adapter-pg 7.10.1
// with schema-engine-wasm 8.1.0), for three reasons this file works around:
//   1. The engine introspects pg_catalog columns of type "char" (OID 18) and wants them typed
//      as ColumnTypeEnum.Character; adapter-pg throws on OID 18, and every introspection fails
//      with "Column type 'char' could not be deserialized". Our pg Client reports those
//      columns as text (so adapter-pg accepts them; the values already are one-letter
//      strings) and notes their positions on the rows array, which adapter-pg passes through
//      untouched; our queryRaw then retypes them as Character. (Typing them Text is not
//      enough: the describer then panics on "constraint_type ... as char failed".)
//   2. adapter-pg's executeScript splits the script on ";" and sends each piece through the
//      pool, so a function body with semicolons breaks and the pieces may land on different
//      connections. We send the whole script as one simple query on one connection, which is
//      what the native engine does (Postgres runs it as one implicit transaction).
//   3. adapter-pg's connectToShadowDb spreads `database` over a config whose connectionString
//      wins, so the "shadow" pool would connect to the main database. We create and drop the
//      shadow database ourselves.
// Each pool has one connection that never idles out: applyMigrations takes a session-level
// advisory lock (pg_advisory_lock(72707369), like the native engine) and it must stay held,
// on the connection that runs the migrations, until we close the pool at the end of the run.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import {
  bindMigrationAwareSqlAdapterFactory,
  ColumnTypeEnum,
  DriverAdapterError,
} from "@prisma/driver-adapter-utils";
import { databaseNameOf, databaseUrlWithName, runOnServer } from "./pg-server.mjs";

const CATALOG_CHAR_OID = 18;
const TEXT_OID = 25;

const CATALOG_CHAR_COLUMNS = Symbol("catalog char columns");

function retypeCatalogChars(result) {
  for (const one of Array.isArray(result) ? result : [result]) {
    const positions = [];
    (one?.fields ?? []).forEach((field, position) => {
      if (field.dataTypeID !== CATALOG_CHAR_OID) return;
      field.dataTypeID = TEXT_OID;
      positions.push(position);
    });
    if (positions.length > 0 && Array.isArray(one.rows)) one.rows[CATALOG_CHAR_COLUMNS] = positions;
  }
  return result;
}

function withCatalogCharColumns(queryable) {
  const queryRaw = queryable.queryRaw.bind(queryable);
  queryable.queryRaw = async (query) => {
    const resultSet = await queryRaw(query);
    for (const position of resultSet.rows[CATALOG_CHAR_COLUMNS] ?? []) {
      resultSet.columnTypes[position] = ColumnTypeEnum.Character;
    }
    return resultSet;
  };
  return queryable;
}

// pg-pool calls client.query(text, values, callback); adapter-pg's transactions call
// client.query(config) and await the promise. Both paths get their fields retyped.
class CatalogCharAsTextClient extends pg.Client {
  query(config, values, callback) {
    const done = typeof values === "function" ? values : callback;
    if (typeof done === "function") {
      const retyped = (error, result) => done(error, error ? result : retypeCatalogChars(result));
      return typeof values === "function"
        ? super.query(config, retyped)
        : super.query(config, values, retyped);
    }
    const pending = super.query(config, values);
    return typeof pending?.then === "function" ? pending.then(retypeCatalogChars) : pending;
  }
}

// The engine only turns a DriverAdapterError into a readable message ("Database error code:
// 23514 ..."); anything else becomes an opaque "unknown error".
function asDriverAdapterError(error) {
  if (typeof error?.code !== "string" || typeof error?.severity !== "string") return error;
  return new DriverAdapterError({
    kind: "postgres",
    code: error.code,
    severity: error.severity,
    message: error.message,
    detail: error.detail,
    column: error.column,
    hint: error.hint,
  });
}

// Every adapter handed to the engine, with how to close it: the engine never disposes its
// main connection, and a failed command may skip disposing a shadow database.
const openAdapters = new Map();

async function connectAdapter(connectionString, afterClose) {
  const pool = new pg.Pool({
    connectionString,
    Client: CatalogCharAsTextClient,
    max: 1,
    idleTimeoutMillis: 0,
  });
  const adapter = withCatalogCharColumns(await new PrismaPg(pool).connect());
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) =>
    withCatalogCharColumns(await startTransaction(isolationLevel));
  adapter.executeScript = async (script) => {
    try {
      await pool.query(script);
    } catch (error) {
      throw asDriverAdapterError(error);
    }
  };
  const detach = adapter.dispose.bind(adapter);
  const close = async () => {
    if (!openAdapters.delete(adapter)) return;
    await detach();
    await pool.end();
    await afterClose?.();
  };
  adapter.dispose = close;
  openAdapters.set(adapter, close);
  return adapter;
}

export async function closeAllAdapters() {
  for (const close of [...openAdapters.values()]) await close();
}

export function createAdapterFactory(connectionString) {
  const factory = {
    provider: "postgres",
    adapterName: "@prisma/adapter-pg",
    connect: () => connectAdapter(connectionString),
    async connectToShadowDb() {
      const suffix = randomBytes(6).toString("hex");
      const shadowName = `${databaseNameOf(connectionString)}_shadow_${suffix}`;
      await runOnServer(connectionString, `CREATE DATABASE "${shadowName}"`).catch((error) => {
        throw asDriverAdapterError(error);
      });
      return connectAdapter(databaseUrlWithName(connectionString, shadowName), () =>
        runOnServer(connectionString, `DROP DATABASE IF EXISTS "${shadowName}" WITH (FORCE)`),
      );
    },
  };
  return bindMigrationAwareSqlAdapterFactory(factory);
}
