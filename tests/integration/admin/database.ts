// Direct reads of the test database, for what HTTP cannot show (what is stored).
import pg from "pg";

export async function withDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL must name the database the app under test uses.");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Tables (of every table in the schema) holding a row whose text contains the needle. */
export async function tablesContaining(needle: string): Promise<string[]> {
  return withDatabase(async (client) => {
    const tables = await client.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
    );
    const found: string[] = [];
    for (const { table_name } of tables.rows) {
      const hit = await client.query(
        `select 1 from "${table_name.replace(/"/g, '""')}" t where row_to_json(t)::text like '%' || $1 || '%' limit 1`,
        [needle],
      );
      if (hit.rowCount) found.push(table_name);
    }
    return found;
  });
}
