// Run by serial-pg-client.test.ts under --throw-deprecation, where pg's warning about a query
// sent while another runs on the same client is thrown instead of printed. argv[2]:
//   plain | serial  four queries at once (and one by callback) on one pg.Client / SerialPgClient
//   prisma          a transaction reading tenants with four relations through db() (pg warns
//                   from the third query at once; the interpreter loads relations together)
// Prints the values read, in order, as JSON.
import pg from "pg";

const mode = process.argv[2];
if (mode === "prisma") {
  const { db, closeDb } = await import("@/lib/data/db");
  const tenants = await db().$transaction((tx) =>
    tx.tenant.findMany({
      include: { apiKeys: true, limits: true, routes: true, overrides: true },
      orderBy: { slug: "asc" },
      take: 3,
    }),
  );
  console.log(JSON.stringify(tenants.map((t) => [t.slug, t.apiKeys.length >= 0, t.limits.length >= 0])));
  await closeDb();
} else {
  const { SerialPgClient } = await import("@/lib/data/serial-pg-client");
  const Client = mode === "serial" ? SerialPgClient : pg.Client;
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const byCallback = new Promise<number>((resolve, reject) =>
    client.query("SELECT 5 AS n", (error: Error | null, result: pg.QueryResult<{ n: number }>) =>
      error ? reject(error) : resolve(result.rows[0]!.n),
    ),
  );
  const read = await Promise.all(
    [1, 2, 3, 4].map(async (n) => {
      const result = await client.query<{ n: number }>("SELECT $1::int AS n, pg_sleep(0.02)", [n]);
      return result.rows[0]!.n;
    }),
  );
  console.log(JSON.stringify([...read, await byCallback]));
  await client.end();
}
