// The migrations in prisma/migrations, applied by scripts/db/migrate.mjs to a fresh database,
// must give exactly schema.prisma (no drift), record themselves as `prisma migrate deploy`
// would, be idempotent, and carry the hand-written rules Prisma cannot express.
// Needs DATABASE_URL naming a Postgres server where it may create and drop databases.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CHECK_VIOLATION,
  MIGRATIONS_DIR,
  freshDatabaseName,
  migrationFolders,
  onServer,
  runMigrate,
  urlForDatabase,
  type RunResult,
} from "./migrate-helpers";

describe("prisma migrations (scripts/db/migrate.mjs)", () => {
  const databaseName = freshDatabaseName();
  const databaseUrl = urlForDatabase(databaseName);
  let db: pg.Client;
  let firstApply: RunResult;

  // Inserts one row; `updatedAt` has no database default (Prisma sets it), so we do.
  async function insert(table: string, row: Record<string, unknown>): Promise<void> {
    const columns = Object.keys(row);
    const needsUpdatedAt = !["AuditEntry", "AdminToken", "ApiKey"].includes(table);
    const all = needsUpdatedAt ? [...columns, "updatedAt"] : columns;
    const values = needsUpdatedAt ? [...Object.values(row), new Date()] : Object.values(row);
    const placeholders = all.map((_, index) => `$${index + 1}`).join(", ");
    const names = all.map((column) => `"${column}"`).join(", ");
    await db.query(`INSERT INTO "${table}" (${names}) VALUES (${placeholders})`, values);
  }

  const limitRow = (id: string, attachments: Record<string, string>) => ({
    id,
    name: id,
    ...attachments,
  });

  beforeAll(async () => {
    await onServer(`CREATE DATABASE "${databaseName}"`);
    firstApply = await runMigrate(databaseUrl, "apply");
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await onServer(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  });

  it("applies every migration folder to an empty database", async () => {
    expect(firstApply.stderr).toBe("");
    expect(firstApply.code).toBe(0);
    const folders = await migrationFolders();
    expect(folders.length).toBeGreaterThan(0);
    for (const folder of folders) expect(firstApply.stdout).toContain(`applied ${folder}\n`);
  });

  it("leaves no drift between the migrated database and schema.prisma", async () => {
    const result = await runMigrate(databaseUrl, "diff");
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("");
    expect(result.code).toBe(0);
  });

  it("applies nothing the second time", async () => {
    const result = await runMigrate(databaseUrl, "apply");
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/^applied /m);
    expect(result.stdout).toMatch(/No pending migrations/);
  });

  it("records one finished row per folder in _prisma_migrations, as migrate deploy does", async () => {
    const { rows } = await db.query<{
      id: string;
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
      logs: string | null;
      applied_steps_count: number;
    }>(`SELECT * FROM "_prisma_migrations" ORDER BY migration_name`);
    const folders = await migrationFolders();
    expect(rows.map((row) => row.migration_name)).toEqual(folders);
    for (const row of rows) {
      const script = await readFile(path.join(MIGRATIONS_DIR, row.migration_name, "migration.sql"));
      expect(row.checksum).toBe(createHash("sha256").update(script).digest("hex"));
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.logs).toBeNull();
      expect(row.applied_steps_count).toBe(1);
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });

  describe("hand-written constraints", () => {
    beforeAll(async () => {
      await insert("Plan", { id: "plan1", name: "free" });
      await insert("Tenant", { id: "ten1", slug: "acme", name: "Acme", planId: "plan1" });
      await insert("ApiKey", {
        id: "key1",
        tenantId: "ten1",
        name: "backend",
        prefix: "sk_",
        hash: "a".repeat(64),
      });
      await insert("Route", { id: "route1", tenantId: null, scope: "global", pattern: "GET /x" });
    });

    it("accepts a limit attached to exactly one owner", async () => {
      await insert("Limit", limitRow("on-plan", { planId: "plan1" }));
      await insert("Limit", limitRow("on-key", { apiKeyId: "key1" }));
      await insert("Limit", limitRow("on-route", { routeId: "route1" }));
    });

    it("refuses a limit with two attachments or none", async () => {
      const violation = { code: CHECK_VIOLATION, constraint: "Limit_one_attachment_check" };
      await expect(
        insert("Limit", limitRow("two", { planId: "plan1", tenantId: "ten1" })),
      ).rejects.toMatchObject(violation);
      await expect(insert("Limit", limitRow("none", {}))).rejects.toMatchObject(violation);
    });

    it("refuses out-of-range values and malformed names", async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ limit: 0 }, "Limit_limit_range_check"],
        [{ burst: 1_000_000_001 }, "Limit_burst_range_check"],
        [{ windowMs: "31536000001" }, "Limit_windowMs_range_check"],
        [{ maxDelayMs: -1 }, "Limit_maxDelayMs_range_check"],
        [{ name: "Not_OK" }, "Limit_name_format_check"],
      ];
      for (const [index, [fields, constraint]] of cases.entries()) {
        await expect(
          insert("Limit", { ...limitRow(`bad-${index}`, { tenantId: "ten1" }), ...fields }),
        ).rejects.toMatchObject({ code: CHECK_VIOLATION, constraint });
      }
      await insert("Limit", { ...limitRow("max-window", { tenantId: "ten1" }), windowMs: "31536000000" });
      await expect(insert("Plan", { id: "plan2", name: "x".repeat(64) })).rejects.toMatchObject({
        constraint: "Plan_name_format_check",
      });
      await expect(
        insert("Tenant", { id: "ten2", slug: "Acme!", name: "A", planId: "plan1" }),
      ).rejects.toMatchObject({ constraint: "Tenant_slug_format_check" });
    });

    it("ties a route's scope to its tenant", async () => {
      const violation = { code: CHECK_VIOLATION, constraint: "Route_scope_check" };
      await insert("Route", { id: "route2", tenantId: "ten1", scope: "ten1", pattern: "GET /x" });
      // The NULL trap: a global route whose scope is not 'global'.
      await expect(
        insert("Route", { id: "route3", tenantId: null, scope: "ten1", pattern: "GET /y" }),
      ).rejects.toMatchObject(violation);
      await expect(
        insert("Route", { id: "route4", tenantId: "ten1", scope: "global", pattern: "GET /z" }),
      ).rejects.toMatchObject(violation);
    });

    it("gives an admin token both tenant and role, or neither", async () => {
      const token = (id: string, extra: Record<string, unknown>) => ({
        id,
        name: id,
        prefix: "at_",
        hash: id.padEnd(64, "0"),
        ...extra,
      });
      await insert("AdminToken", token("operator", {}));
      await insert("AdminToken", token("tenant-admin", { tenantId: "ten1", role: "admin" }));
      const violation = { code: CHECK_VIOLATION, constraint: "AdminToken_tenant_role_check" };
      await expect(insert("AdminToken", token("no-role", { tenantId: "ten1" }))).rejects.toMatchObject(
        violation,
      );
      await expect(insert("AdminToken", token("no-tenant", { role: "owner" }))).rejects.toMatchObject(
        violation,
      );
    });

    it("keeps AuditEntry append-only", async () => {
      await insert("AuditEntry", { actorType: "user", actorLabel: "a", action: "x", targetType: "plan" });
      const refused = /AuditEntry is append-only/;
      await expect(db.query(`UPDATE "AuditEntry" SET "action" = 'y'`)).rejects.toThrow(refused);
      await expect(db.query(`DELETE FROM "AuditEntry"`)).rejects.toThrow(refused);
      await expect(db.query(`TRUNCATE "AuditEntry"`)).rejects.toThrow(refused);
      const { rows } = await db.query<{ count: string }>(`SELECT count(*) FROM "AuditEntry"`);
      expect(rows[0]?.count).toBe("1");
    });
  });

  // Last: it changes the schema. Shows that the empty diff above is not vacuous.
  it("reports drift when the database differs from schema.prisma", async () => {
    await db.query(`ALTER TABLE "Plan" ADD COLUMN "extra" INTEGER`);
    const result = await runMigrate(databaseUrl, "diff");
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/ALTER TABLE "Plan" DROP COLUMN "extra"/);
  });
});

describe("two concurrent applies", () => {
  const databaseName = freshDatabaseName();
  const databaseUrl = urlForDatabase(databaseName);

  beforeAll(() => onServer(`CREATE DATABASE "${databaseName}"`));
  afterAll(() => onServer(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`));

  it("apply each migration once (the engine's advisory lock serializes them)", async () => {
    const runs = await Promise.all([runMigrate(databaseUrl, "apply"), runMigrate(databaseUrl, "apply")]);
    expect(runs.map((run) => run.code)).toEqual([0, 0]);
    const folders = await migrationFolders();
    const appliedLines = runs.flatMap((run) => run.stdout.match(/^applied .+$/gm) ?? []);
    expect(appliedLines.sort()).toEqual(folders.map((folder) => `applied ${folder}`));
  });
});
