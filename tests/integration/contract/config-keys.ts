import { describe, expect, it } from "vitest";
import { anyPlan, call } from "../admin/http";
import type { Contract } from "./contract-context";

// Contract topics: configuration export and import, API keys, service and admin tokens.

export function configAndCredentials(c: Contract): void {
  describe("configuration", () => {
    it("GET: 200 as JSON and as YAML, 400, 401", async () => {
      const exported = await c.conforms("GET /api/admin/config", "/api/admin/config", 200);
      expect(exported.body).toHaveProperty("tenants");
      const yaml = await c.conforms("GET /api/admin/config", "/api/admin/config", 200, {
        accept: "application/yaml",
      });
      expect(yaml.text).toMatch(/^tenants:/m);
      await c.conforms("GET /api/admin/config", "/api/admin/config?x=1", 400);
      await c.conforms("GET /api/admin/config", "/api/admin/config", 401, { token: null });
    });

    it("PUT: 200 (dry run), 400, 401, 403, 413, 415, 422", async () => {
      const op = "PUT /api/admin/config";
      const exported = (await call("GET", "/api/admin/config")).body;
      await c.conforms(op, "/api/admin/config?dryRun=true", 200, { body: exported });
      await c.conforms(op, "/api/admin/config?prune=maybe", 400, { body: exported });
      await c.conforms(op, "/api/admin/config", 401, { token: null, body: exported });
      await c.conforms(op, "/api/admin/config", 403, { token: c.f.viewerToken, body: { tenants: [] } });
      const deep = `{"tenants":${"[".repeat(40)}${"]".repeat(40)}}`;
      await c.conforms(op, "/api/admin/config", 413, { body: deep });
      await c.conforms(op, "/api/admin/config", 415, { body: "tenants: []", contentType: "text/plain" });
      await c.conforms(op, "/api/admin/config", 422, {
        body: { tenants: [{ slug: "Bad Slug", plan: "nope" }] },
      });
      // format=envoy: an envoy ratelimit file (docs/envoy-migration.md)
      const plan = await anyPlan();
      const envoy = "domain: contract_envoy\ndescriptors:\n  - key: user\n    detailed_metric: true\n";
      const dry = await c.conforms(op, `/api/admin/config?format=envoy&plan=${plan}&dryRun=true`, 200, {
        body: envoy,
        contentType: "application/yaml",
      });
      expect(dry.body).toMatchObject({
        envoy: { tenant: "contract-envoy", report: [{ line: 1 }, { line: 4 }] },
      });
      await c.conforms(op, "/api/admin/config?format=envoy", 400, {
        body: envoy,
        contentType: "application/yaml",
      });
      await c.conforms(op, `/api/admin/config?format=envoy&plan=${plan}`, 422, {
        body: "descriptors: []\n",
        contentType: "application/yaml",
      });
    });
  });

  describe("keys and tokens", () => {
    it("keys: list 200/401/404, create 201/400/403/409/415, rotate 200/400/403/404/409, revoke 200/404", async () => {
      const keys = `/api/admin/tenants/${c.f.slug}/keys`;
      await c.conforms("GET /api/admin/tenants/{slug}/keys", keys, 200);
      await c.conforms("GET /api/admin/tenants/{slug}/keys", keys, 401, { token: null });
      await c.conforms("GET /api/admin/tenants/{slug}/keys", "/api/admin/tenants/no-such-tenant-x/keys", 404);
      const create = "POST /api/admin/tenants/{slug}/keys";
      await c.conforms(create, keys, 201, { body: { name: "contract-two" } });
      await c.conforms(create, keys, 409, { body: { name: "contract-two" } });
      await c.conforms(create, keys, 400, { body: { name: "Bad Name" } });
      await c.conforms(create, keys, 403, { token: c.f.viewerToken, body: { name: "viewer-key" } });
      await c.conforms(create, keys, 415, { body: "name=x", contentType: "text/plain" });
      const rotate = "POST /api/admin/tenants/{slug}/keys/{name}/rotate";
      await c.conforms(rotate, `${keys}/contract-two/rotate`, 200, { body: { graceSeconds: 60 } });
      await c.conforms(rotate, `${keys}/contract-two/rotate`, 400, { body: { graceSeconds: -1 } });
      await c.conforms(rotate, `${keys}/contract-two/rotate`, 403, {
        token: c.f.viewerToken,
        body: { graceSeconds: 60 },
      });
      await c.conforms(rotate, `${keys}/no-such-key/rotate`, 404, { body: { graceSeconds: 60 } });
      const revoke = "DELETE /api/admin/tenants/{slug}/keys/{name}";
      await c.conforms(revoke, `${keys}/contract-two`, 200);
      await c.conforms(rotate, `${keys}/contract-two/rotate`, 409, { body: { graceSeconds: 60 } });
      await c.conforms(revoke, `${keys}/no-such-key`, 404);
    });

    it("service tokens 201/400/401/403 and admin tokens 201/400/403", async () => {
      const service = "POST /api/admin/service-tokens";
      await c.conforms(service, "/api/admin/service-tokens", 201, {
        body: { name: "contract", tenants: [c.f.slug] },
      });
      await c.conforms(service, "/api/admin/service-tokens", 400, { body: {} });
      await c.conforms(service, "/api/admin/service-tokens", 401, { token: null, body: { name: "x" } });
      await c.conforms(service, "/api/admin/service-tokens", 403, {
        token: c.f.viewerToken,
        body: { name: "x", tenants: [c.f.slug] },
      });
      const admin = "POST /api/admin/admin-tokens";
      await c.conforms(admin, "/api/admin/admin-tokens", 201, {
        body: { name: "contract", role: "viewer", tenant: c.f.slug },
      });
      await c.conforms(admin, "/api/admin/admin-tokens", 400, { body: { name: "x", role: "god" } });
      await c.conforms(admin, "/api/admin/admin-tokens", 403, {
        token: c.f.viewerToken,
        body: { name: "x", role: "owner", tenant: c.f.slug },
      });
    });
  });
}
