// An export imported again unchanged is a no-op: no change, no new config version, no audit
// entry, in the DAL and over GET then PUT /api/admin/config. The global routes here sort
// differently in PostgreSQL's C collation ("/B" before "/a") and in localeCompare ("/a"
// first): the import once compared them in two orders and reported "global routes" updated.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteDoc } from "@/lib/control/config/document";
import { exportConfig } from "@/lib/control/data/export-config";
import { importConfig } from "@/lib/control/data/import-config";
import { closeClients, tester } from "../check/setup";
import { call, exportJson, importJson, type ImportReply } from "./http";

const base = `/rt${randomBytes(3).toString("hex")}`;
const limit = { name: "rt-rpm", by: "tenant", algorithm: "fixed_window", limit: 10, window: "1m" } as const;
const added: RouteDoc[] = ["/B", "/a", "/:id", "/*", "/Z/x", "/z/x"].map((tail) => ({
  pattern: `GET ${base}${tail}`,
  limits: [{ ...limit }],
}));
let routesBefore: RouteDoc[] = [];

async function counts(): Promise<{ versions: number; audit: number }> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const versions = await client.query<{ n: string }>('select count(*) as n from "ConfigVersion"');
    const audit = await client.query<{ n: string }>('select count(*) as n from "AuditEntry"');
    return { versions: Number(versions.rows[0]!.n), audit: Number(audit.rows[0]!.n) };
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  routesBefore = (await exportConfig(tester)).routes ?? [];
  await importConfig(tester, { routes: [...routesBefore, ...added] });
});

afterAll(async () => {
  await importConfig(tester, { routes: routesBefore });
  await closeClients();
});

describe("export re-imported unchanged", () => {
  it("the global routes really are in an order that differs from localeCompare's", async () => {
    const exported = (await exportConfig(tester)).routes ?? [];
    const ours = exported.map((r) => r.pattern).filter((p) => p.startsWith(`GET ${base}`));
    expect(ours).toHaveLength(added.length);
    expect([...ours].sort((a, b) => a.localeCompare(b))).not.toEqual(ours);
  });

  it("DAL: importConfig(exportConfig()) changes nothing, adds no version and no audit entry", async () => {
    const before = await counts();
    const result = await importConfig(tester, await exportConfig(tester));
    expect(result).toEqual({ configVersion: null, changes: [], createdKeys: [] });
    expect(await counts()).toEqual(before);
  });

  it("DAL: the same routes listed in another order change nothing either", async () => {
    const before = await counts();
    const routes = [...((await exportConfig(tester)).routes ?? [])].reverse();
    expect(await importConfig(tester, { routes })).toEqual({
      configVersion: null,
      changes: [],
      createdKeys: [],
    });
    expect(await counts()).toEqual(before);
  });

  it("HTTP: GET then PUT /api/admin/config answers no changes, in JSON and in YAML", async () => {
    const before = await counts();
    const json = await importJson(await exportJson());
    expect(json.status).toBe(200);
    expect(json.body).toEqual({ configVersion: null, changes: [], createdKeys: [], dryRun: false });
    const yaml = await call("GET", "/api/admin/config", { accept: "application/yaml" });
    expect(yaml.status).toBe(200);
    const reply = await call<ImportReply>("PUT", "/api/admin/config", {
      body: yaml.text,
      contentType: "application/yaml",
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ configVersion: null, changes: [], createdKeys: [], dryRun: false });
    expect(await counts()).toEqual(before);
  });
});
