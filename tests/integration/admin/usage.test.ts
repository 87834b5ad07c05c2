// GET /api/admin/usage: the query is real over the rollup tables (rows written here stand
// in for the usage recorder, so the query is tested apart from it), and every bad parameter is named.
import { beforeAll, describe, expect, it } from "vitest";
import { anyPlan, call, createKey, putTenants, uniqueSlug, type ErrorReply } from "./http";
import { withDatabase } from "./database";

const slug = uniqueSlug("usage");
const base = Date.UTC(2026, 0, 15, 10, 0, 0); // a fixed past hour: no live traffic lands there

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
    const insert =
      'insert into "UsageMinute" (minute, "tenantId", "keyId", route, allowed, rejected, "shadowRejected", degraded) values ($1, $2, $3, $4, $5, $6, $7, $8)';
    await db.query(insert, [new Date(base), tenantId, key.id, "GET /x", 10, 1, 2, 0]);
    await db.query(insert, [new Date(base + 60_000), tenantId, key.id, "GET /x", 5, 0, 0, 1]);
    await db.query(insert, [new Date(base + 60_000), tenantId, "", "", 7, 0, 0, 0]);
    await db.query(
      'insert into "UsageHour" (hour, "tenantId", "keyId", route, allowed, rejected, "shadowRejected", degraded) values ($1, $2, $3, $4, $5, $6, $7, $8)',
      [new Date(base), tenantId, "", "", 100, 3, 0, 0],
    );
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
