// Shared by the bulk admin tests: what one request wrote to the audit log (by its
// x-request-id), and waiting on the running app to enforce a new config version.
import { randomUUID } from "node:crypto";
import { call } from "../admin/http";
import { withDatabase } from "../admin/database";

export interface AuditRow {
  action: string;
  targetType: string;
  targetId: string | null;
  configVersion: number | null;
  before: unknown;
  after: unknown;
}

export const newRequestId = (): string => `bulk-${randomUUID()}`;

export async function auditOf(requestId: string): Promise<AuditRow[]> {
  return withDatabase(async (db) => {
    const rows = await db.query<AuditRow>(
      'select action, "targetType", "targetId", "configVersion", before, after from "AuditEntry" where "requestId" = $1 order by id',
      [requestId],
    );
    return rows.rows;
  });
}

/** Checks with this secret until the servers know it (they pick a version up within a second). */
export async function checkWithKey(apiKey: string): Promise<{ allowed: boolean; reason: string }> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const reply = await call<{ allowed: boolean; reason: string }>("POST", "/api/check", {
      body: { apiKey, dryRun: true },
    });
    if (reply.status !== 200) throw new Error(`check: ${reply.status} ${reply.text}`);
    if (reply.body.reason !== "unknown_key" || Date.now() > deadline) return reply.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function keyCount(slug: string): Promise<number> {
  return withDatabase(async (db) => {
    const rows = await db.query<{ n: string }>(
      'select count(*) as n from "ApiKey" k join "Tenant" t on t.id = k."tenantId" where t.slug = $1',
      [slug],
    );
    return Number(rows.rows[0]?.n ?? 0);
  });
}

/** `count` keys straight into the table (no secrets anyone holds), to reach a cap fast. */
export async function fillKeys(slug: string, count: number): Promise<void> {
  await withDatabase((db) =>
    db.query(
      `insert into "ApiKey" (id, "tenantId", name, prefix, hash)
       select 'fill-' || md5(random()::text), t.id, 'fill-' || n, 'sk_fill', md5(random()::text) || md5(random()::text)
       from "Tenant" t, generate_series(1, $2::int) n where t.slug = $1`,
      [slug, count],
    ),
  );
}
