// GET /api/admin/usage: the query is real over the rollup tables (rows written here stand
// in for the usage recorder, so the query is tested apart from it), and every bad parameter is named.
import { beforeAll, describe, expect, it } from "vitest";
import { anyPlan, call, createKey, putTenants, uniqueSlug, type ErrorReply } from "./http";
import { withDatabase } from "./database";

const slug = uniqueSlug("usage");
// 10:00 two days ago: within every retention, and no live traffic of this tenant lands there
const base = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 2 * 86_400_000 + 10 * 3_600_000;

interface Series {
  stepMs: number;
  points: { t: string; allowed: number; rejected: number; shadowRejected: number; degraded: number }[];
}

beforeAll(async () => {
  await putTenants([{ slug, plan: await anyPlan() }]);
  const key = await createKey(slug, "k1");
  await withDatabase(async (db) => {
    const { rows } = await db.query<{ id: string }>('select id from "Tenant" where slug = $1', [slug]);
    const tenantId = rows[0]!.id;
    // as the rollup stores a minute: the pair apart, and added into the tenant's, the key's
    // and the route's series ("*": every key or route)
    const series = async (keyId: string, route: string): Promise<number> => {
      const found = await db.query<{ id: number }>(
        `insert into "UsageSeries" ("tenantId", "keyId", route) values ($1, $2, $3)
         on conflict ("tenantId", "keyId", route) do update set route = excluded.route returning id`,
        [tenantId, keyId, route],
      );
      return found.rows[0]!.id;
    };
    const add = (table: string, column: string) =>
      `insert into "${table}" (${column}, "seriesId", allowed, rejected, "shadowRejected", degraded)
       values ($1, $2, $3, $4, $5, $6) on conflict ("seriesId", ${column}) do update set
       allowed = "${table}".allowed + excluded.allowed, rejected = "${table}".rejected + excluded.rejected,
       "shadowRejected" = "${table}"."shadowRejected" + excluded."shadowRejected",
       degraded = "${table}".degraded + excluded.degraded`;
    for (const [table, grain] of [
      ["UsageMinute", "day"],
      ["UsageMinutePair", "hour"],
      ["UsageHour", "week"],
    ])
      await db.query("select usage_ensure_partition($1, $2, $3::timestamp)", [
        table,
        grain,
        new Date(base).toISOString(),
      ]);
    const minute = async (t: number, keyId: string, route: string, counts: number[]) => {
      await db.query(add("UsageMinutePair", "minute"), [new Date(t), await series(keyId, route), ...counts]);
      for (const [k, r] of [
        [keyId, "*"],
        ["*", route],
        ["*", "*"],
      ])
        await db.query(add("UsageMinute", "minute"), [new Date(t), await series(k!, r!), ...counts]);
    };
    await minute(base, key.id, "GET /x", [10, 1, 2, 0]);
    await minute(base + 60_000, key.id, "GET /x", [5, 0, 0, 1]);
    await minute(base + 60_000, "", "", [7, 0, 0, 0]);
    await db.query(add("UsageHour", "hour"), [new Date(base), await series("*", "*"), 100, 3, 0, 0]);
  });
});

const range = `from=${new Date(base).toISOString()}&to=${base + 5 * 60_000}`;

describe("usage series", () => {
  it("buckets the minute rows by step, zeros where nothing was counted", async () => {
    const reply = await call<Series>("GET", `/api/admin/usage?tenant=${slug}&${range}&step=1m`);
    expect(reply.status).toBe(200);
    expect(reply.body.points).toHaveLength(5);
    expect(reply.body.points[0]).toEqual({
      t: new Date(base).toISOString(),
      allowed: 10,
      rejected: 1,
      shadowRejected: 2,
      degraded: 0,
      leasesAcquired: 0,
      leasesReleased: 0,
      leasesExpired: 0,
    });
    expect(reply.body.points[1]?.allowed).toBe(12);
    expect(reply.body.points[2]?.allowed).toBe(0);
  });

  it("filters by key and route; a larger step sums", async () => {
    const byKey = await call<Series>("GET", `/api/admin/usage?tenant=${slug}&key=k1&${range}&step=5m`);
    expect(byKey.body.points).toEqual([expect.objectContaining({ allowed: 15, rejected: 1, degraded: 1 })]);
    const byRoute = await call<Series>(
      "GET",
      `/api/admin/usage?tenant=${slug}&route=${encodeURIComponent("GET /x")}&${range}&step=300000`,
    );
    expect(byRoute.body.points[0]?.allowed).toBe(15);
  });

  it("hour steps read the hourly rollup", async () => {
    const reply = await call<Series>(
      "GET",
      `/api/admin/usage?tenant=${slug}&from=${base}&to=${base + 3_600_000}&step=1h`,
    );
    expect(reply.body.points).toEqual([expect.objectContaining({ allowed: 100, rejected: 3 })]);
  });

  it("answers an empty series for a range without traffic", async () => {
    const reply = await call<Series>(
      "GET",
      `/api/admin/usage?tenant=${slug}&from=${base - 600_000}&to=${base}&step=1m`,
    );
    expect(reply.body.points).toHaveLength(10);
    expect(reply.body.points.every((p) => p.allowed === 0)).toBe(true);
  });

  it.each([
    ["step", "step=0", "step"],
    ["step over a day", "step=2d", "step"],
    ["step too fine for the range", `from=${base - 30 * 86_400_000}&to=${base}&step=1s`, "step"],
    ["from", "from=yesterday", "from"],
    ["to", "to=2026-13-45", "to"],
    ["from after to", `from=${base}&to=${base - 1}`, "from"],
    ["key without tenant", "key=k1", "key"],
    ["tenant", "tenant=Not_A_Slug", "tenant"],
    ["unknown parameter", "bucket=1m", "bucket"],
  ])("400 naming the field: %s", async (_label, query, path) => {
    const reply = await call<ErrorReply>("GET", `/api/admin/usage?${query}`);
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe("invalid_request");
    expect(reply.body.error.path).toBe(path);
  });

  it("404 for a key the tenant does not have", async () => {
    const reply = await call<ErrorReply>("GET", `/api/admin/usage?tenant=${slug}&key=nope&${range}`);
    expect(reply.status).toBe(404);
  });
});
