import { describe, expect, it } from "vitest";
import type { Contract } from "./contract-context";

// Contract topic: alert endpoints, rules and the delivery log.

export function alertsContract(c: Contract): void {
  describe("alerts", () => {
    it("endpoints, rules and deliveries: 200/201/400/403/404/409", async () => {
      const base = `/api/admin/tenants/${c.f.slug}/alerts`;
      const endpoints = "POST /api/admin/tenants/{slug}/alerts/endpoints";
      const made = await c.conforms(endpoints, `${base}/endpoints`, 201, {
        body: { name: "contract", url: "https://hooks.example.com/contract" },
      });
      expect((made.body as { secret: string }).secret).toMatch(/^whsec_/);
      await c.conforms(endpoints, `${base}/endpoints`, 400, {
        body: { name: "x", url: "ftp://example.com/" },
      });
      await c.conforms(endpoints, `${base}/endpoints`, 403, {
        token: c.f.viewerToken,
        body: { name: "x", url: "https://hooks.example.com/x" },
      });
      await c.conforms(endpoints, `${base}/endpoints`, 409, {
        body: { name: "contract", url: "https://hooks.example.com/again" },
      });
      const list = "GET /api/admin/tenants/{slug}/alerts/endpoints";
      await c.conforms(list, `${base}/endpoints`, 200, { token: c.f.viewerToken });
      await c.conforms(list, `/api/admin/tenants/${c.f.otherSlug}/alerts/endpoints`, 404, {
        token: c.f.viewerToken,
      });
      const rules = "POST /api/admin/tenants/{slug}/alerts/rules";
      const rule = await c.conforms(rules, `${base}/rules`, 201, {
        body: { name: "contract", kind: "rejection_rate", thresholdPct: 5, endpoint: "contract" },
      });
      await c.conforms(rules, `${base}/rules`, 400, {
        body: { name: "x", kind: "utilization", endpoint: "contract" },
      });
      await c.conforms(rules, `${base}/rules`, 403, {
        token: c.f.viewerToken,
        body: { name: "x", kind: "degraded", endpoint: "contract" },
      });
      await c.conforms("GET /api/admin/tenants/{slug}/alerts/rules", `${base}/rules`, 200);
      const ruleId = (rule.body as { id: string }).id;
      const disableRule = "DELETE /api/admin/tenants/{slug}/alerts/rules/{id}";
      await c.conforms(disableRule, `${base}/rules/${ruleId}`, 200);
      await c.conforms(disableRule, `${base}/rules/no-such-rule`, 404);
      const deliveries = "GET /api/admin/tenants/{slug}/alerts/deliveries";
      await c.conforms(deliveries, `${base}/deliveries?limit=5`, 200);
      await c.conforms(deliveries, `${base}/deliveries?limit=0`, 400);
      const disable = "DELETE /api/admin/tenants/{slug}/alerts/endpoints/{name}";
      await c.conforms(disable, `${base}/endpoints/contract`, 200);
      await c.conforms(disable, `${base}/endpoints/no-such-endpoint`, 404);
    });
  });
}
