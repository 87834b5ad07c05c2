// The installation npm run bench:console measures the console on: `tenants` tenants of the
// configuration bench's document (scripts/bench/config/document.ts: a plan, two limits and
// five routes of two limits each a tenant), imported in parts as bench:config does; three
// keys a tenant (in SQL: an import cannot create keys), BUSY_KEYS for the first tenant (the
// keys page of a busy tenant); one in 20 tenants suspended; and
// usage in the tiered layout (usage-db-seed.ts' tables) for every tenant: its own series, each
// key's and each route's, for the last 30 minutes (minutes) and 24 hours (hours), every
// third tenant with rejections, and the installation's series summed from the tenants' as the
// rollup writes it. Then the rollup's 15-minute totals, and two accounts.
import { KEYS_PER_TENANT, ROUTES_PER_TENANT, slugOf, wholeDoc } from "./config/document";

const HOUR = 3_600_000;
const MINUTES = 30;
const HOURS = 24;
const IMPORT_PART = 1_000;
/** the first tenant's keys: the keys page is measured on a tenant this busy */
export const BUSY_KEYS = 5_000;

export interface SeededConsole {
  operator: { email: string; password: string };
  /** a tenant admin of the first tenant only */
  member: { email: string; password: string };
}

export async function seedConsole(tenants: number, now: number): Promise<SeededConsole> {
  await import(new URL("../server-only-hook.mjs", import.meta.url).href);
  const { db } = await import("@/lib/control/data/db");
  const { importConfig } = await import("@/lib/control/data/import-config");
  const { ensurePartition, PARTITION_GRAIN, partitionsOver } =
    await import("@/lib/control/data/usage/partitions");
  const { refreshTenantTraffic } = await import("@/lib/control/data/usage/tenant-traffic");
  const { hashPassword } = await import("@/lib/shared/password");
  const system = { kind: "system", label: "bench" } as const;
  for (let from = 0; from < tenants; from += IMPORT_PART)
    await importConfig(system, wholeDoc(from, Math.min(tenants, from + IMPORT_PART), from === 0));
  const q = (sql: string, ...values: Array<string | number>) => db().$executeRawUnsafe(sql, ...values);
  await q(`UPDATE "Tenant" SET "status" = 'suspended' WHERE substring("slug" from 2)::int % 20 = 19`);
  await q(
    `INSERT INTO "ApiKey" ("id", "tenantId", "name", "prefix", "hash")
     SELECT 'bk' || t."slug" || '-' || k, t."id", 'key' || k, 'sk_' || t."slug" || k,
            encode(sha256(convert_to(t."id" || k, 'UTF8')), 'hex')
       FROM "Tenant" t, generate_series(0, ${KEYS_PER_TENANT - 1}) k`,
  );
  // the busy tenant's other keys, one in 50 revoked and one in 40 never used
  await q(
    `INSERT INTO "ApiKey" ("id", "tenantId", "name", "prefix", "hash", "revokedAt", "lastUsedAt")
     SELECT 'bk' || t."slug" || '-' || k, t."id", 'key' || k, 'sk_' || t."slug" || k,
            encode(sha256(convert_to(t."id" || k, 'UTF8')), 'hex'),
            CASE WHEN k % 50 = 7 THEN now() END,
            CASE WHEN k % 40 <> 3 THEN now() - make_interval(secs => k) END
       FROM "Tenant" t, generate_series(${KEYS_PER_TENANT}, ${BUSY_KEYS - 1}) k
      WHERE t."slug" = $1`,
    slugOf(0),
  );
  const lastMinute = Math.floor(now / 60_000) * 60_000;
  const lastHour = Math.floor(now / HOUR) * HOUR;
  for (const [table, from] of [
    ["UsageMinute", lastMinute - MINUTES * 60_000],
    ["UsageHour", lastHour - HOURS * HOUR],
  ] as const)
    for (const start of partitionsOver(PARTITION_GRAIN[table], from, now))
      await ensurePartition(table, start);
  // the series: the tenant's ("*", "*"), each key's (route "*"), each route's (key "*")
  await q(
    `INSERT INTO "UsageSeries" ("tenantId", "keyId", "route")
     SELECT t."id", '*', '*' FROM "Tenant" t
     UNION ALL SELECT k."tenantId", k."id", '*' FROM "ApiKey" k
     UNION ALL SELECT t."id", '*', 'GET /v1/r' || r || '/:id' FROM "Tenant" t, generate_series(0, ${ROUTES_PER_TENANT - 1}) r`,
  );
  const utc = (ms: string) => `to_timestamp(${ms} / 1000.0) AT TIME ZONE 'UTC'`;
  // counts by series and time: the tenant's series carries its keys' sum (5 checks a key a
  // minute and up), rejections on every third tenant
  const rows = (table: string, column: string, unitMs: number, count: number, last: number, scale: number) =>
    q(
      `INSERT INTO "${table}" ("${column}", "seriesId", "allowed", "rejected")
       SELECT ${utc(`(${last}::bigint - n::bigint * ${unitMs})`)}, s."id",
              ${scale} * (5 + (s."id" + n) % 20) * (CASE WHEN s."keyId" = '*' AND s."route" = '*' THEN ${KEYS_PER_TENANT} ELSE 1 END),
              nullif(CASE WHEN hashtext(s."tenantId") % 3 = 0 THEN ${scale} * ((s."id" * n) % 4) ELSE 0 END, 0)
         FROM "UsageSeries" s, generate_series(1, ${count}) n
        WHERE s."tenantId" <> '*'`,
    );
  await rows("UsageMinute", "minute", 60_000, MINUTES, lastMinute, 1);
  await rows("UsageHour", "hour", HOUR, HOURS, lastHour, 60);
  // the installation's series, as the rollup writes it with each minute (installation-series.ts)
  for (const [table, column] of [
    ["UsageMinute", "minute"],
    ["UsageHour", "hour"],
  ])
    await q(
      `INSERT INTO "${table}" ("${column}", "seriesId", "allowed", "rejected")
       SELECT m."${column}", (SELECT "id" FROM "UsageSeries" WHERE "tenantId" = '*' AND "keyId" = '*' AND "route" = '*'),
              sum(m."allowed"), nullif(sum(coalesce(m."rejected", 0)), 0)
         FROM "${table}" m JOIN "UsageSeries" s ON s."id" = m."seriesId"
        WHERE s."keyId" = '*' AND s."route" = '*' AND s."tenantId" <> '*'
        GROUP BY 1`,
    );
  await q(`ANALYZE`);
  await refreshTenantTraffic(lastMinute);
  const operator = { email: "operator@console.bench", password: "console-bench-operator-1" };
  const member = { email: "admin@console.bench", password: "console-bench-member-1" };
  await db().user.create({
    data: {
      email: operator.email,
      name: "Operator",
      isOperator: true,
      passwordHash: await hashPassword(operator.password),
    },
  });
  const first = await db().tenant.findUniqueOrThrow({ where: { slug: slugOf(0) } });
  await db().user.create({
    data: {
      email: member.email,
      name: "Tenant admin",
      passwordHash: await hashPassword(member.password),
      memberships: { create: { tenantId: first.id, role: "admin" } },
    },
  });
  return { operator, member };
}
