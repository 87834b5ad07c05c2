// Run by serial-pg-client.test.ts under --throw-deprecation, where pg's warning about a query
// sent while another runs on the same client is thrown instead of printed. argv[2]:
//   plain | serial  four queries at once, one failing, and one by callback, on one
//                   pg.Client / SerialPgClient
//   prisma          a transaction reading tenants with four relations through db() (pg warns
//                   from the third query at once; the interpreter loads relations together)
// Prints the values read, in order, as JSON.
import pg from "pg";

const mode = process.argv[2];
if (mode === "prisma") {
  const { db, closeDb } = await import("@/lib/control/data/db");
  const tenants = await db().$transaction((tx) =>
    tx.tenant.findMany({
      include: { apiKeys: true, limits: true, routes: true, overrides: true },
      orderBy: { slug: "asc" },
      take: 3,
    }),
  );
  // each tenant's relations as read in the transaction, then counted one query at a time
  const rows = [];
  for (const t of tenants) {
    const where = { tenantId: t.id };
    rows.push({
      slug: t.slug,
      read: [t.apiKeys.length, t.limits.length, t.routes.length, t.overrides.length],
      counted: [
        await db().apiKey.count({ where }),
        await db().limit.count({ where }),
        await db().route.count({ where }),
        await db().override.count({ where }),
      ],
    });
  }
  console.log(JSON.stringify(rows));
  await closeDb();
} else {
  const { SerialPgClient } = await import("@/lib/control/data/serial-pg-client");
  const Client = mode === "serial" ? SerialPgClient : pg.Client;
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const byCallback = new Promise<number>((resolve, reject) =>
    client.query("SELECT 5 AS n", (error: Error | null, result: pg.QueryResult<{ n: number }>) =>
      error ? reject(error) : resolve(result.rows[0]!.n),
    ),
  );
  // the second fails: the queries after it must still run
  const read = await Promise.allSettled(
    [1, 0, 3, 4].map(async (n) => {
      const result = await client.query<{ n: number }>("SELECT 12 / $1::int AS n, pg_sleep(0.02)", [n]);
      return result.rows[0]!.n;
    }),
  );
  const values = read.map((r) => (r.status === "fulfilled" ? r.value : String(r.reason)));
  console.log(JSON.stringify([...values, await byCallback]));
  await client.end();
}
