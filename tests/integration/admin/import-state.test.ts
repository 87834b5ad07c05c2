// The rows and audit entries a sequence of imports leaves, compared with what the import
// wrote before its writes were batched (tests/integration/admin/fixtures/import-state.json,
// recorded from the per-tenant writer): creates, updates of fields, limits, routes and key
// limits, an unchanged tenant, and keys made by the keys endpoint between imports.
// IMPORT_STATE_RECORD=1 records the fixture again (only on purpose, after reviewing the diff).
import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { createApiKeys } from "@/lib/control/data/api-keys";
import { importConfig } from "@/lib/control/data/import-config";
import { closeClients, tester, unique } from "../check/setup";
import { withDatabase } from "./database";

const FIXTURE = new URL("./fixtures/import-state.json", import.meta.url);
const slugs = { A: unique("gold-a"), B: unique("gold-b"), C: unique("gold-c") };
const tenantLimit = (name: string, limit: number) =>
  ({ name, by: "tenant", algorithm: "fixed_window", limit, window: "1m" }) as const;
const keyLimit = (name: string, limit: number) =>
  ({ name, by: "key", algorithm: "token_bucket", limit, window: "1s", burst: limit * 2 }) as const;
const route = (pattern: string, limit: number) => ({
  pattern,
  limits: [{ name: "route-rps", by: "key", algorithm: "gcra", limit, window: "1s" }],
});

afterAll(closeClients);

/** The text with this run's slugs and the given ids replaced by stable labels. */
function labelled(value: unknown, ids: Map<string, string>): unknown {
  let text = JSON.stringify(value);
  for (const [id, label] of ids) text = text.replaceAll(id, label);
  for (const [label, slug] of Object.entries(slugs)) text = text.replaceAll(slug, `<${label}>`);
  // a key's prefix is the start of its random secret
  text = text.replace(/"sk_[A-Za-z0-9_-]+"/g, '"<prefix>"');
  return JSON.parse(text);
}

async function state(firstVersion: number): Promise<unknown> {
  return withDatabase(async (client) => {
    const list = Object.values(slugs);
    const tenants = await client.query<{ id: string; slug: string }>(
      `select t.id, t.slug, t.name, p.name as plan, t.status from "Tenant" t join "Plan" p on p.id = t."planId"
       where t.slug = any($1) order by t.slug`,
      [list],
    );
    const ids = new Map<string, string>(tenants.rows.map((t) => [t.id, `<tenant ${t.slug}>`]));
    const keys = await client.query<{ id: string; tenant: string; name: string }>(
      `select k.id, t.slug as tenant, k.name, k."revokedAt" is null as live from "ApiKey" k
       join "Tenant" t on t.id = k."tenantId" where t.slug = any($1) order by t.slug, k.name`,
      [list],
    );
    for (const k of keys.rows) ids.set(k.id, `<key ${k.tenant}/${k.name}>`);
    const routes = await client.query(
      `select t.slug as tenant, r.scope = t.id as scoped, r.pattern from "Route" r
       join "Tenant" t on t.id = r."tenantId" where t.slug = any($1) order by t.slug, r.pattern`,
      [list],
    );
    const limits = await client.query(
      `select coalesce(t.slug, rt.slug || ' ' || r.pattern, kt.slug || '/' || k.name) as owner,
              l.name, l.by, l."routePattern", l.algorithm, l."limit", l."windowMs"::text, l.burst,
              l.action, l."maxDelayMs"::text, l.mode, l."onStoreFailure", l.consistency,
              l."syncEveryMs", l.disabled, l.position
       from "Limit" l
       left join "Tenant" t on t.id = l."tenantId"
       left join "Route" r on r.id = l."routeId" left join "Tenant" rt on rt.id = r."tenantId"
       left join "ApiKey" k on k.id = l."apiKeyId" left join "Tenant" kt on kt.id = k."tenantId"
       where coalesce(t.slug, rt.slug, kt.slug) = any($1) order by owner, l.name`,
      [list],
    );
    const audit = await client.query(
      // versions as their rank among these entries: other files' changes may come between
      `select dense_rank() over (order by "configVersion") as version, "actorType", "actorLabel",
              "tenantId", action, "targetType", "targetId", before, after
       from "AuditEntry" where "configVersion" >= $2 and "tenantId" = any($1) order by id`,
      [tenants.rows.map((t) => t.id), firstVersion],
    );
    const rows = tenants.rows.map(({ id: _id, ...rest }) => rest);
    return labelled(
      {
        tenants: rows,
        keys: keys.rows.map(({ id: _id, ...rest }) => rest),
        routes: routes.rows,
        limits: limits.rows,
        audit: audit.rows,
      },
      ids,
    );
  });
}

describe("import writes", () => {
  it("leave the same rows and audit entries as the per-tenant writer did", async () => {
    const first = await importConfig(tester, {
      tenants: [
        {
          slug: slugs.A,
          plan: "free",
          limits: [tenantLimit("a-min", 100), keyLimit("a-key", 5)],
          routes: [route("GET /gold/a", 3), route("POST /gold/a/:id", 4)],
        },
        { slug: slugs.B, name: "Gold B", plan: "free", limits: [tenantLimit("b-min", 50)] },
      ],
    });
    expect(first.configVersion).not.toBeNull();
    await createApiKeys(tester, slugs.A, [{ name: "k1" }, { name: "k2" }]);
    await importConfig(tester, {
      tenants: [
        {
          slug: slugs.A,
          name: "Gold A",
          plan: "free",
          limits: [tenantLimit("a-min", 120), keyLimit("a-key", 5)],
          routes: [route("POST /gold/a/:id", 6), route("GET /gold/a2", 2)],
          keys: [{ name: "k1", limits: [keyLimit("a-key", 9), keyLimit("k1-only", 1)] }, { name: "k2" }],
        },
        { slug: slugs.B, name: "Gold B", plan: "free", limits: [tenantLimit("b-min", 50)] },
        { slug: slugs.C, plan: "free", status: "suspended", routes: [route("GET /gold/c", 1)] },
      ],
    });
    await importConfig(tester, {
      tenants: [
        {
          slug: slugs.A,
          name: "Gold A",
          plan: "free",
          limits: [tenantLimit("a-min", 120), keyLimit("a-key", 5)],
          routes: [route("POST /gold/a/:id", 6), route("GET /gold/a2", 2)],
          keys: [
            { name: "k1", limits: [keyLimit("a-key", 9)] },
            { name: "k2", limits: [keyLimit("a-key", 1)] },
          ],
        },
        { slug: slugs.B, name: "Gold B", plan: "free", status: "suspended", limits: [] },
      ],
    });
    const actual = await state(first.configVersion ?? 0);
    if (process.env.IMPORT_STATE_RECORD === "1")
      writeFileSync(FIXTURE, `${JSON.stringify(actual, null, 2)}\n`);
    expect(actual).toEqual(JSON.parse(readFileSync(FIXTURE, "utf8")));
  });
});
