// The contract test (issue 13 §2): real requests to every operation of /api/openapi.json on
// the running app, success and the main errors, each real answer (status, headers, body)
// validated against the document; at the end every operation must have been exercised.
import { beforeAll, describe, expect, it } from "vitest";
import { APP_URL, call, type CallOptions, type Reply } from "../admin/http";
import { contractFixture, type ContractFixture } from "./fixtures";
import { OpenApiValidator, type OpenApiDoc } from "./openapi-validator";

let validator: OpenApiValidator;
let f: ContractFixture;

/** Sends the request and expects `status` and an answer the document allows. */
async function conforms(
  operation: string,
  path: string,
  status: number,
  options: CallOptions = {},
): Promise<Reply> {
  const method = operation.split(" ")[0] ?? "GET";
  const reply = await call(method, path, options);
  expect(
    { status: reply.status, problems: validator.problems(operation, reply) },
    reply.text.slice(0, 300),
  ).toEqual({
    status,
    problems: [],
  });
  return reply;
}

beforeAll(async () => {
  const response = await fetch(`${APP_URL}/api/openapi.json`);
  const doc = (await response.json()) as OpenApiDoc;
  validator = new OpenApiValidator(doc);
  f = await contractFixture();
});

describe("system", () => {
  it("GET /api/openapi.json, /api/health, /api/metrics (unauthenticated)", async () => {
    const doc = await conforms("GET /api/openapi.json", "/api/openapi.json", 200, { token: null });
    expect((doc.body as { openapi: string }).openapi).toBe("3.1.0");
    await conforms("GET /api/health", "/api/health", 200, { token: null });
    const metrics = await conforms("GET /api/metrics", "/api/metrics", 200, { token: null });
    expect(metrics.text).toMatch(/^# (HELP|TYPE) /m);
  });
});

describe("checks", () => {
  const check = (body: unknown, status: number, token: string | null = f.serviceToken) =>
    conforms("POST /api/check", "/api/check", status, { token, body });

  it("200 with RateLimit headers, then a denial with Retry-After", async () => {
    const body = { apiKey: f.apiKey, route: "GET /v1/items/1", subject: "203.0.113.7" };
    const first = await check(body, 200);
    expect(first.body).toMatchObject({ allowed: true, tenant: f.slug, route: "GET /v1/items/:id" });
    expect(first.headers.get("ratelimit")).toMatch(/"items";r=1;t=\d+/);
    expect(first.headers.get("ratelimit-policy")).toMatch(/"items";q=2;w=3600/);
    await check(body, 200);
    const denied = await check(body, 200);
    expect(denied.body).toMatchObject({ allowed: false, reason: "rate_limited" });
    expect(denied.headers.get("retry-after")).toMatch(/^\d+$/);
    await check({ apiKey: "sk_nope_unknown" }, 200); // unknown_key: a decision too
  });

  it("400, 401, 403, 413", async () => {
    await check({ apiKey: f.apiKey, cost: -1 }, 400);
    await check({ apiKey: f.apiKey }, 401, null);
    await check({ tenant: f.otherSlug }, 403);
    await conforms("POST /api/check", "/api/check", 413, {
      token: f.serviceToken,
      body: "x".repeat(70 * 1024),
    });
  });

  it("batch: 200 with a decision and an error in place, 400, 401, 413", async () => {
    const reply = await conforms("POST /api/check/batch", "/api/check/batch", 200, {
      token: f.serviceToken,
      body: {
        checks: [
          { tenant: f.slug, route: "GET /v1/other" },
          { tenant: f.slug, cost: 0 },
        ],
      },
    });
    const results = (reply.body as { results: Record<string, unknown>[] }).results;
    expect(results[0]).toHaveProperty("allowed");
    expect(results[1]).toHaveProperty("error");
    await conforms("POST /api/check/batch", "/api/check/batch", 400, {
      token: f.serviceToken,
      body: { checks: [] },
    });
    await conforms("POST /api/check/batch", "/api/check/batch", 401, { token: null, body: { checks: [{}] } });
    await conforms("POST /api/check/batch", "/api/check/batch", 413, {
      token: f.serviceToken,
      body: "x".repeat(1100 * 1024),
    });
  });
});

describe("configuration", () => {
  it("GET: 200 as JSON and as YAML, 400, 401", async () => {
    const exported = await conforms("GET /api/admin/config", "/api/admin/config", 200);
    expect(exported.body).toHaveProperty("tenants");
    const yaml = await conforms("GET /api/admin/config", "/api/admin/config", 200, {
      accept: "application/yaml",
    });
    expect(yaml.text).toMatch(/^tenants:/m);
    await conforms("GET /api/admin/config", "/api/admin/config?x=1", 400);
    await conforms("GET /api/admin/config", "/api/admin/config", 401, { token: null });
  });

  it("PUT: 200 (dry run), 400, 401, 403, 413, 415, 422", async () => {
    const op = "PUT /api/admin/config";
    const exported = (await call("GET", "/api/admin/config")).body;
    await conforms(op, "/api/admin/config?dryRun=true", 200, { body: exported });
    await conforms(op, "/api/admin/config?prune=maybe", 400, { body: exported });
    await conforms(op, "/api/admin/config", 401, { token: null, body: exported });
    await conforms(op, "/api/admin/config", 403, { token: f.viewerToken, body: { tenants: [] } });
    const deep = `{"tenants":${"[".repeat(40)}${"]".repeat(40)}}`;
    await conforms(op, "/api/admin/config", 413, { body: deep });
    await conforms(op, "/api/admin/config", 415, { body: "tenants: []", contentType: "text/plain" });
    await conforms(op, "/api/admin/config", 422, { body: { tenants: [{ slug: "Bad Slug", plan: "nope" }] } });
  });
});

describe("keys and tokens", () => {
  it("keys: list 200/401/404, create 201/400/403/409/415, revoke 200/404", async () => {
    const keys = `/api/admin/tenants/${f.slug}/keys`;
    await conforms("GET /api/admin/tenants/{slug}/keys", keys, 200);
    await conforms("GET /api/admin/tenants/{slug}/keys", keys, 401, { token: null });
    await conforms("GET /api/admin/tenants/{slug}/keys", "/api/admin/tenants/no-such-tenant-x/keys", 404);
    const create = "POST /api/admin/tenants/{slug}/keys";
    await conforms(create, keys, 201, { body: { name: "contract-two" } });
    await conforms(create, keys, 409, { body: { name: "contract-two" } });
    await conforms(create, keys, 400, { body: { name: "Bad Name" } });
    await conforms(create, keys, 403, { token: f.viewerToken, body: { name: "viewer-key" } });
    await conforms(create, keys, 415, { body: "name=x", contentType: "text/plain" });
    const revoke = "DELETE /api/admin/tenants/{slug}/keys/{name}";
    await conforms(revoke, `${keys}/contract-two`, 200);
    await conforms(revoke, `${keys}/no-such-key`, 404);
  });

  it("service tokens 201/400/401/403 and admin tokens 201/400/403", async () => {
    const service = "POST /api/admin/service-tokens";
    await conforms(service, "/api/admin/service-tokens", 201, {
      body: { name: "contract", tenants: [f.slug] },
    });
    await conforms(service, "/api/admin/service-tokens", 400, { body: {} });
    await conforms(service, "/api/admin/service-tokens", 401, { token: null, body: { name: "x" } });
    await conforms(service, "/api/admin/service-tokens", 403, {
      token: f.viewerToken,
      body: { name: "x", tenants: [f.slug] },
    });
    const admin = "POST /api/admin/admin-tokens";
    await conforms(admin, "/api/admin/admin-tokens", 201, {
      body: { name: "contract", role: "viewer", tenant: f.slug },
    });
    await conforms(admin, "/api/admin/admin-tokens", 400, { body: { name: "x", role: "god" } });
    await conforms(admin, "/api/admin/admin-tokens", 403, {
      token: f.viewerToken,
      body: { name: "x", role: "owner", tenant: f.slug },
    });
  });
});

describe("counters, audit and usage", () => {
  it("state 200/400/404 and reset 200/400/403/404", async () => {
    await conforms("GET /api/admin/state", `/api/admin/state?tenant=${f.slug}&route=GET%20/v1/items/1`, 200);
    await conforms("GET /api/admin/state", "/api/admin/state", 400);
    await conforms("GET /api/admin/state", "/api/admin/state?tenant=no-such-tenant-x", 404);
    const reset = "POST /api/admin/reset";
    await conforms(reset, "/api/admin/reset", 200, {
      body: { tenant: f.slug, limit: "items", route: "GET /v1/items/1" },
    });
    await conforms(reset, "/api/admin/reset", 400, { body: { tenant: f.slug } });
    await conforms(reset, "/api/admin/reset", 403, {
      token: f.viewerToken,
      body: { tenant: f.slug, limit: "items" },
    });
    await conforms(reset, "/api/admin/reset", 404, { body: { tenant: f.slug, limit: "no-such-limit" } });
  });

  it("audit 200/400 and usage 200/400/404", async () => {
    const audit = await conforms("GET /api/admin/audit", `/api/admin/audit?tenant=${f.slug}&limit=5`, 200);
    expect((audit.body as { entries: unknown[] }).entries.length).toBeGreaterThan(0);
    await conforms("GET /api/admin/audit", "/api/admin/audit?limit=0", 400);
    await conforms("GET /api/admin/usage", `/api/admin/usage?tenant=${f.slug}&step=1m`, 200);
    await conforms("GET /api/admin/usage", "/api/admin/usage?step=0", 400);
    await conforms("GET /api/admin/usage", "/api/admin/usage?tenant=no-such-tenant-x", 404);
  });
});

describe("wrong methods", () => {
  it("every operation's path answers another method 405 as the document declares", async () => {
    for (const operation of validator.operations()) {
      const path = (operation.split(" ")[1] ?? "").replace("{slug}", f.slug).replace("{name}", "x");
      const reply = await call("PATCH", path); // no operation of the API is a PATCH
      expect({ operation, status: reply.status, problems: validator.problems(operation, reply) }).toEqual({
        operation,
        status: 405,
        problems: [],
      });
    }
  });
});

describe("ops tools", () => {
  it("simulate and lookup 200/400/404", async () => {
    const route = "route=GET%20/v1/items/1";
    const sim = await conforms(
      "GET /api/admin/simulate",
      `/api/admin/simulate?tenant=${f.slug}&${route}&cost=2`,
      200,
    );
    expect((sim.body as { limits: { name: string }[] }).limits.map((l) => l.name)).toContain("items");
    await conforms("GET /api/admin/simulate", `/api/admin/simulate?tenant=${f.slug}&cost=0`, 400);
    await conforms("GET /api/admin/simulate", `/api/admin/simulate?tenant=${f.otherSlug}`, 404, {
      token: f.viewerToken,
    });
    await conforms("GET /api/admin/lookup", `/api/admin/lookup?tenant=${f.slug}&subject=203.0.113.7`, 200);
    await conforms("GET /api/admin/lookup", "/api/admin/lookup", 400);
    await conforms("GET /api/admin/lookup", `/api/admin/lookup?tenant=${f.slug}&key=no-such-key`, 404);
  });

  it("replay 200/400/401/404", async () => {
    const op = "POST /api/admin/replay";
    const proposed = {
      algorithm: "gcra",
      limit: 1,
      windowMs: 1_000,
      burst: null,
      action: "reject",
      maxDelayMs: null,
    };
    const body = { tenant: f.slug, by: "subject", current: null, proposed, minutes: 5 };
    await conforms(op, "/api/admin/replay", 200, { body });
    await conforms(op, "/api/admin/replay", 200, { body: { ...body, by: "key" } });
    await conforms(op, "/api/admin/replay", 400, { body: { ...body, minutes: 0 } });
    await conforms(op, "/api/admin/replay", 401, { token: null, body });
    await conforms(op, "/api/admin/replay", 404, {
      token: f.viewerToken,
      body: { ...body, tenant: f.otherSlug },
    });
  });

  it("history 200/400/404 and rollback 200/400/403/404/422", async () => {
    const history = await conforms(
      "GET /api/admin/history",
      `/api/admin/history?tenant=${f.slug}&limit=5`,
      200,
    );
    const versions = (history.body as { versions: { version: number }[] }).versions;
    expect(versions.length).toBeGreaterThan(0);
    await conforms("GET /api/admin/history", "/api/admin/history?limit=0", 400);
    await conforms("GET /api/admin/history", `/api/admin/history?tenant=${f.otherSlug}`, 404, {
      token: f.viewerToken,
    });
    const rollback = "POST /api/admin/rollback";
    const version = versions.at(-1)?.version ?? 1;
    await conforms(rollback, "/api/admin/rollback", 200, { body: { version, tenant: f.slug, dryRun: true } });
    await conforms(rollback, "/api/admin/rollback", 400, { body: { version: "x" } });
    await conforms(rollback, "/api/admin/rollback", 403, {
      token: f.viewerToken,
      body: { version, tenant: f.slug },
    });
    await conforms(rollback, "/api/admin/rollback", 404, { body: { version: 2_000_000_000 } });
    // a version from before the contract's tenant existed: not found for that tenant
    await conforms(rollback, "/api/admin/rollback", 404, { body: { version: 1, tenant: f.slug } });
  });
});

// Last in the file (tests run in order): a route added to the document without a request
// above fails the run.
describe("coverage", () => {
  it("exercised every operation of the document", () => {
    const missing = validator.operations().filter((operation) => !validator.exercised.has(operation));
    expect(missing, "operations without a contract test").toEqual([]);
  });
});
