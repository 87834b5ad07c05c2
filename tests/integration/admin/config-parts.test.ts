// Versions sized by the change: a version stores, in PostgreSQL and Redis, only the parts
// it changed; history and rollback still see whole configurations; the healer replays a
// version Redis missed from those parts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { tester, unique } from "@/tests/integration/check/setup";

// Redis keys under a prefix of this file's own: the healer test rewinds this prefix's
// watermark, which the app and other tests (on the default prefix) never see.
process.env.REDIS_PREFIX = `parts-${process.pid}:`;
const { createApiKey } = await import("@/lib/control/data/api-keys");
const { documentAt, latestPublished } = await import("@/lib/control/data/config-versions");
const { importConfig } = await import("@/lib/control/data/import-config");
const { exportConfig } = await import("@/lib/control/data/export-config");
const { republishIfBehind } = await import("@/lib/control/data/reconcile");
const { parsePart } = await import("@/lib/check/published/parts");
const { closeDb } = await import("@/lib/control/data/db");
const { closeRedis, redis } = await import("@/lib/shared/redis/redis");
const { configKeys } = await import("@/lib/shared/redis/redis-keys");

const slug = unique("parts");
const keys = configKeys(process.env.REDIS_PREFIX);
const sql = new pg.Client({ connectionString: process.env.DATABASE_URL });
const limit = (value: number) => [
  { name: "rpm", by: "tenant", algorithm: "fixed_window", limit: value, window: "1m" },
];
let plan = "";

/** Bytes PostgreSQL stores for one version: its row, its parts, its audit entries. */
async function bytesOf(version: number): Promise<number> {
  const { rows } = await sql.query<{ bytes: string }>(
    `select (select coalesce(sum(pg_column_size(v.*)), 0) from "ConfigVersion" v where v.version = $1)
          + (select coalesce(sum(pg_column_size(p.*)), 0) from "ConfigPart" p where p.version = $1) as bytes`,
    [version],
  );
  return Number(rows[0]?.bytes ?? 0);
}

async function scopesOf(version: number): Promise<string[]> {
  const { rows } = await sql.query<{ scope: string }>(`select scope from "ConfigPart" where version = $1`, [
    version,
  ]);
  return rows.map((row) => row.scope).sort();
}

beforeAll(async () => {
  await sql.connect();
  plan = (await exportConfig(tester)).plans?.[0]?.name ?? "";
  await importConfig(tester, { tenants: [{ slug, name: slug, plan, limits: limit(10) }] });
});

afterAll(async () => {
  const stale = await redis().keys(`${process.env.REDIS_PREFIX ?? ""}*`);
  if (stale.length > 0) await redis().del(...stale);
  await sql.end();
  await closeDb();
  await closeRedis();
});

describe("config versions in parts", () => {
  it("a key created stores one key part, under 2 KB", async () => {
    await createApiKey(tester, slug, { name: "bare" });
    const { rows } = await sql.query<{ version: number }>(
      `select max(a."configVersion") as version from "AuditEntry" a where a."targetType" = 'key' and a."tenantId" = (select id from "Tenant" where slug = $1)`,
      [slug],
    );
    const version = Number(rows[0]?.version);
    const scopes = await scopesOf(version);
    expect(scopes).toHaveLength(1);
    expect(scopes[0]).toMatch(/^k:[0-9a-f]{64}$/);
    expect(await bytesOf(version)).toBeLessThanOrEqual(2_048);
    // Redis holds it as the one part too, and the whole as PostgreSQL assembles it has the key
    const text = await redis().hget(keys.parts, scopes[0] ?? "");
    expect(parsePart(text)).toMatchObject({ kind: "key", tenant: slug, name: "bare", revoked: false });
    expect((await latestPublished())?.snapshot.tenants[slug]?.keys.bare).toMatchObject({ limits: null });
  });

  it("a tenant's change stores that tenant's part only, and rollback restores the document", async () => {
    const before = await importConfig(tester, { tenants: [{ slug, name: slug, plan, limits: limit(20) }] });
    const changed = await importConfig(tester, { tenants: [{ slug, name: slug, plan, limits: limit(30) }] });
    const version = Number(changed.configVersion);
    expect(await scopesOf(version)).toEqual([`t:${slug}`]);
    const then = await documentAt(Number(before.configVersion));
    expect(then?.tenants?.find((t) => t.slug === slug)?.limits[0]?.limit).toBe(20);
    const now = await documentAt(version);
    expect(now?.tenants?.find((t) => t.slug === slug)?.limits[0]?.limit).toBe(30);
    expect(now?.plans?.length).toBeGreaterThan(0);
  });

  it("the healer replays a version Redis missed, from its parts", async () => {
    const changed = await importConfig(tester, { tenants: [{ slug, name: slug, plan, limits: limit(40) }] });
    const version = Number(changed.configVersion);
    const scope = `t:${slug}`;
    const client = redis();
    // As if the publish of this version never reached Redis (newer ones by other tests may have).
    const mark = Number(await client.get(keys.version));
    if (mark >= version) await client.set(keys.version, String(version - 1));
    await client.hset(keys.partVersions, scope, "0");
    await client.hdel(keys.parts, scope);
    await republishIfBehind(client);
    expect(Number(await client.get(keys.version))).toBeGreaterThanOrEqual(version);
    const part = parsePart(await client.hget(keys.parts, scope));
    const rpm =
      part.kind === "tenant" ? part.tenant.keyDefault.unrouted.find((l) => l.name === "rpm") : undefined;
    expect(rpm?.rule.limit).toBe(40);
  });
});
