// Prune deletes every tenant a document does not list, so it is tested here, at the DAL the
// admin API calls, on a throwaway database of its own (never the one the app and the other
// tests share). Config keys go to Redis under a prefix of their own for the same reason.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const name = `sluice_adm_prune_${randomBytes(4).toString("hex")}`;
const serverUrl = process.env.DATABASE_URL ?? "";
const url = (() => {
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
})();

async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

function migrate(): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--experimental-wasm-modules", "--no-warnings", "scripts/db/migrate.mjs", "apply"],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: url },
        stdio: "ignore",
      },
    );
    child.on("error", reject);
    child.on("close", resolve);
  });
}

type Dal = {
  importConfig: typeof import("@/lib/control/data/import-config").importConfig;
  exportConfig: typeof import("@/lib/control/data/export-config").exportConfig;
  ForbiddenError: typeof import("@/lib/control/errors/errors").ForbiddenError;
  close: () => Promise<void>;
};
let dal: Dal;
const system = { kind: "system", label: "prune test" } as const;
const limits = [{ name: "rpm", by: "tenant", algorithm: "fixed_window", limit: 10, window: "1m" }];
const tenants = ["t-one", "t-two", "t-three"].map((slug) => ({ slug, plan: "basic", limits }));

beforeAll(async () => {
  await onServer(`create database "${name}"`);
  expect(await migrate()).toBe(0);
  // The DAL reads its settings once, on first use in this file's own module graph.
  process.env.DATABASE_URL = url;
  process.env.REDIS_PREFIX = `adm-prune-${randomBytes(3).toString("hex")}:`;
  const [imports, exports, errors, dbModule, redisModule] = await Promise.all([
    import("@/lib/control/data/import-config"),
    import("@/lib/control/data/export-config"),
    import("@/lib/control/errors/errors"),
    import("@/lib/control/data/db"),
    import("@/lib/shared/redis/redis"),
  ]);
  dal = {
    importConfig: imports.importConfig,
    exportConfig: exports.exportConfig,
    ForbiddenError: errors.ForbiddenError,
    close: async () => {
      await dbModule.closeDb();
      await redisModule.closeRedis();
    },
  };
  await dal.importConfig(system, { plans: [{ name: "basic", limits: [] }], tenants });
}, 60_000);

afterAll(async () => {
  await dal?.close();
  await onServer(`drop database if exists "${name}" with (force)`);
});

describe("prune (DAL, throwaway database)", () => {
  it("a dry run lists the deletions and deletes nothing", async () => {
    const result = await dal.importConfig(system, { tenants: [tenants[0]] }, { prune: true, dryRun: true });
    expect(result.configVersion).toBeNull();
    expect(
      result.changes
        .filter((c) => c.action === "delete")
        .map((c) => c.name)
        .sort(),
    ).toEqual(["t-three", "t-two"]);
    expect((await dal.exportConfig(system)).tenants?.map((t) => t.slug)).toEqual([
      "t-one",
      "t-three",
      "t-two",
    ]);
  });

  it("without prune, unlisted tenants stay", async () => {
    const result = await dal.importConfig(system, { tenants: [tenants[0]] });
    expect(result.changes).toEqual([]);
    expect((await dal.exportConfig(system)).tenants).toHaveLength(3);
  });

  it("prune deletes every unlisted tenant, in one new version", async () => {
    const result = await dal.importConfig(system, { tenants: [tenants[0]] }, { prune: true });
    expect(result.configVersion).toEqual(expect.any(Number));
    expect(result.changes).toEqual(
      expect.arrayContaining([
        { action: "delete", target: "tenant", name: "t-two" },
        { action: "delete", target: "tenant", name: "t-three" },
      ]),
    );
    expect((await dal.exportConfig(system)).tenants?.map((t) => t.slug)).toEqual(["t-one"]);
  });

  it("a tenant-scoped principal may not prune", async () => {
    const exported = await dal.exportConfig(system);
    const tenantId = await (async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query<{ id: string }>('select id from "Tenant" where slug = $1', [
        "t-one",
      ]);
      await client.end();
      return rows[0]!.id;
    })();
    const token = { kind: "admin-token", id: "t", name: "t", tenantId, role: "owner" } as const;
    await expect(
      dal.importConfig(token, { tenants: exported.tenants }, { prune: true }),
    ).rejects.toBeInstanceOf(dal.ForbiddenError);
  });
});
