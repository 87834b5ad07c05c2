import { describe, it } from "vitest";
import { anyPlan } from "../admin/http";
import type { Contract } from "./contract-context";

// Contract topics: the bulk calls (keys, plan assignment, one limit on many targets).

export function bulkContract(c: Contract): void {
  describe("bulk changes", () => {
    it("keys/bulk: 201, 400, 401, 403, 404, 409, 415", async () => {
      const op = "POST /api/admin/tenants/{slug}/keys/bulk";
      const path = `/api/admin/tenants/${c.f.slug}/keys/bulk`;
      await c.conforms(op, path, 201, { body: { keys: [{ name: "bulk-one" }, { name: "bulk-two" }] } });
      await c.conforms(op, path, 409, { body: { keys: [{ name: "bulk-three" }, { name: "bulk-one" }] } });
      await c.conforms(op, path, 400, { body: { keys: [{ name: "Bad Name" }] } });
      await c.conforms(op, path, 401, { token: null, body: { keys: [{ name: "x" }] } });
      await c.conforms(op, path, 403, { token: c.f.viewerToken, body: { keys: [{ name: "x" }] } });
      await c.conforms(op, "/api/admin/tenants/no-such-tenant-x/keys/bulk", 404, {
        body: { keys: [{ name: "x" }] },
      });
      await c.conforms(op, path, 415, { body: "keys=x", contentType: "text/plain" });
    });

    it("plan-assignments: 200, 400, 401, 403, 422", async () => {
      const op = "POST /api/admin/plan-assignments";
      const path = "/api/admin/plan-assignments";
      const plan = await anyPlan(); // the fixture's tenants are on it: no change
      await c.conforms(op, path, 200, { body: { plan, tenants: [c.f.otherSlug] } });
      await c.conforms(op, path, 400, { body: { plan, tenants: [] } });
      await c.conforms(op, path, 401, { token: null, body: { plan, tenants: [c.f.otherSlug] } });
      await c.conforms(op, path, 403, { token: c.f.viewerToken, body: { plan, tenants: [c.f.slug] } });
      await c.conforms(op, path, 422, { body: { plan, tenants: ["no-such-tenant-x"] } });
    });

    it("limits/bulk: 200, 400, 401, 403, 404, 422", async () => {
      const op = "POST /api/admin/limits/bulk";
      const path = "/api/admin/limits/bulk";
      const limit = { name: "bulk-cap", by: "tenant", algorithm: "fixed_window", limit: 1000, window: "1h" };
      await c.conforms(op, path, 200, { body: { limit, tenants: [c.f.otherSlug] } });
      await c.conforms(op, path, 400, {
        body: { limit: { ...limit, window: "soon" }, tenants: [c.f.otherSlug] },
      });
      await c.conforms(op, path, 401, { token: null, body: { limit, tenants: [c.f.otherSlug] } });
      await c.conforms(op, path, 403, { token: c.f.viewerToken, body: { limit, tenants: [c.f.slug] } });
      await c.conforms(op, path, 404, { body: { limit, tenant: "no-such-tenant-x", keys: ["k"] } });
      await c.conforms(op, path, 422, { body: { limit, tenants: ["no-such-tenant-x"] } });
    });
  });
}
