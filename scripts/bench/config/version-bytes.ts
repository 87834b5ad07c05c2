// Step 5: the bytes PostgreSQL stores for one config version, measured without knowing the
// schema's layout: pg_column_size of every row of every table named Config* that has a
// `version` column (ConfigVersion today; ConfigPart or the like after) belonging to it,
// plus its audit rows.
import pg from "pg";

export interface VersionBytes {
  config: number;
  audit: number;
}

const quoted = (name: string): string => `"${name.replaceAll('"', '""')}"`;

export async function versionBytes(databaseUrl: string, version: number): Promise<VersionBytes> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name LIKE 'Config%' AND column_name = 'version'`,
    );
    let config = 0;
    for (const { table_name } of tables.rows) {
      const sum = await client.query<{ bytes: string }>(
        `SELECT coalesce(sum(pg_column_size(t.*)), 0) AS bytes FROM ${quoted(table_name)} t WHERE t.version = $1`,
        [version],
      );
      config += Number(sum.rows[0]?.bytes ?? 0);
    }
    const audit = await client.query<{ bytes: string }>(
      `SELECT coalesce(sum(pg_column_size(t.*)), 0) AS bytes FROM "AuditEntry" t WHERE t."configVersion" = $1`,
      [version],
    );
    return { config, audit: Number(audit.rows[0]?.bytes ?? 0) };
  } finally {
    await client.end();
  }
}

/** The version a key's creation made, from its audit entry (the key answer names no version). */
export async function versionOfKey(databaseUrl: string, keyId: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const row = await client.query<{ v: number | null }>(
      `SELECT max("configVersion") AS v FROM "AuditEntry" WHERE "targetId" = $1`,
      [keyId],
    );
    const version = row.rows[0]?.v;
    if (version === null || version === undefined) throw new Error(`no audited version for key ${keyId}`);
    return version;
  } finally {
    await client.end();
  }
}
