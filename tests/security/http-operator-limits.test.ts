// Operators' limits and per-tenant memory over HTTP against the running app (APP_URL):
// a tenant route "GET /v1/admin/*" without limits no longer drops the global admin-calls
// from POST /api/check, an editor's reset of it answers 403, and /api/metrics carries the
// per-tenant memory gauge.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { exportConfig } from "@/lib/control/data/export-config";

import { call, createAdminToken, type ErrorReply } from "../integration/admin/http";
import {
  closeClients,
  FREE_PLAN_OFF,
  importDoc,
  setupTenants,
  tester,
  unique,
} from "../integration/check/setup";
import { decide, waitForVersion } from "../integration/check/http";

const base = `/sec${randomBytes(3).toString("hex")}/admin`;
const wild = unique("sec-wild");
const param = unique("sec-param");
let routesBefore: unknown[] = [];

beforeAll(async () => {
  routesBefore = (await exportConfig(tester)).routes ?? [];
  await importDoc({
    routes: [
      ...routesBefore,
      {
        pattern: `* ${base}/*`,
        limits: [{ name: "admin-calls", by: "tenant", algorithm: "fixed_window", limit: 2, window: "1h" }],
      },
    ],
  });
  const setup = await setupTenants([
    { slug: wild, plan: "free", limits: FREE_PLAN_OFF, routes: [{ pattern: `GET ${base}/*`, limits: [] }] },
    { slug: param, plan: "free", limits: FREE_PLAN_OFF, routes: [{ pattern: `GET ${base}/:x`, limits: [] }] },
  ]);
  await waitForVersion(setup.version);
});

afterAll(async () => {
  await importDoc({ routes: routesBefore });
  await closeClients();
});

describe("POST /api/check keeps the global route's limits", () => {
  for (const [label, slug] of [
    ["GET /v1/admin/*", () => wild],
    ["GET /v1/admin/:x", () => param],
  ] as const) {
    it(`a tenant route like ${label} without limits: admin-calls still applies and rejects the third`, async () => {
      const body = { tenant: slug(), route: `GET ${base}/users` };
      const first = await decide(body);
      expect(first.limits.map((l) => l.name)).toContain("admin-calls");
      expect(first.route).toBe(`GET ${base}/${slug() === wild ? "*" : ":x"}`);
      await decide(body);
      expect(await decide(body)).toMatchObject({ allowed: false, reason: "rate_limited" });
    });
  }
});

describe("reset of an imposed limit", () => {
  it("answers 403 naming why to a tenant editor, and works for an operator", async () => {
    const editor = await createAdminToken({ name: unique("sec-ed"), role: "editor", tenant: wild });
    const body = { tenant: wild, limit: "admin-calls", route: `GET ${base}/users` };
    const refused = await call<ErrorReply>("POST", "/api/admin/reset", { token: editor, body });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/only an operator can reset the counters of admin-calls/i);
    const done = await call("POST", "/api/admin/reset", { body });
    expect(done.status).toBe(200);
  });
});

describe("GET /api/metrics", () => {
  it("exports the per-tenant Redis memory gauge", async () => {
    const reply = await call("GET", "/api/metrics", { token: null });
    expect(reply.status).toBe(200);
    expect(reply.text).toContain("# TYPE sluice_tenant_redis_bytes gauge");
  });
});
