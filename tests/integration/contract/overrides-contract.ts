import { describe, expect, it } from "vitest";
import type { Contract } from "./contract-context";

// Contract topic: temporary overrides (list, create, end early), and state and the simulator
// answering a limit under one.

export function overridesContract(c: Contract): void {
  describe("temporary overrides", () => {
    it("list 200/400/404, create 201/400/403/404, end 200/404/409", async () => {
      const endsAt = new Date(Date.now() + 3_600_000).toISOString();
      const body = { tenant: c.f.slug, limit: "items", value: 5, endsAt, reason: "contract test" };
      const create = "POST /api/admin/overrides";
      const made = await c.conforms(create, "/api/admin/overrides", 201, { body });
      const id = (made.body as { id: string }).id;
      expect(made.body).toMatchObject({ tenant: c.f.slug, limit: "items", value: 5, state: "active" });
      await c.conforms(create, "/api/admin/overrides", 400, { body: { ...body, reason: "" } });
      await c.conforms(create, "/api/admin/overrides", 403, { token: c.f.viewerToken, body });
      await c.conforms(create, "/api/admin/overrides", 400, { body: { ...body, limit: "no-such-limit" } });
      await c.conforms(create, "/api/admin/overrides", 404, {
        body: { ...body, tenant: "no-such-tenant-x" },
      });
      // state and the simulator answer the limit with the override in force, as documented
      for (const path of ["/api/admin/state", "/api/admin/simulate"]) {
        const seen = await c.conforms(
          `GET ${path}`,
          `${path}?tenant=${c.f.slug}&route=GET%20/v1/items/1`,
          200,
        );
        const limits = (seen.body as { limits: { name: string; limit: number; override: unknown }[] }).limits;
        expect(limits.find((l) => l.name === "items")).toMatchObject({
          limit: 5,
          override: { id, value: 5, endsAt: (made.body as { endsAt: string }).endsAt },
        });
      }
      const list = "GET /api/admin/overrides";
      await c.conforms(list, `/api/admin/overrides?tenant=${c.f.slug}`, 200, { token: c.f.viewerToken });
      await c.conforms(list, "/api/admin/overrides?state=bogus", 400);
      await c.conforms(list, `/api/admin/overrides?tenant=${c.f.otherSlug}`, 404, { token: c.f.viewerToken });
      const end = "POST /api/admin/overrides/{id}/end";
      await c.conforms(end, `/api/admin/overrides/${id}/end`, 200);
      await c.conforms(end, `/api/admin/overrides/${id}/end`, 409);
      await c.conforms(end, "/api/admin/overrides/nosuchoverride0/end", 404);
    });
  });
}
