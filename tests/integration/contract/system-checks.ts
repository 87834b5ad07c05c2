import { describe, expect, it } from "vitest";
import type { Contract } from "./contract-context";

// Contract topics: the unauthenticated system routes and the check API (single and batch).

export function systemAndChecks(c: Contract): void {
  describe("system", () => {
    it("GET /api/openapi.json, /api/health, /api/metrics (unauthenticated)", async () => {
      const doc = await c.conforms("GET /api/openapi.json", "/api/openapi.json", 200, { token: null });
      expect((doc.body as { openapi: string }).openapi).toBe("3.1.0");
      await c.conforms("GET /api/health", "/api/health", 200, { token: null });
      const metrics = await c.conforms("GET /api/metrics", "/api/metrics", 200, { token: null });
      expect(metrics.text).toMatch(/^# (HELP|TYPE) /m);
    });

    it("GET /api/metrics/stalls: the front's stall spans since a moment, 400 for a since not in ms", async () => {
      const since = Date.now() - 60_000;
      const stalls = await c.conforms("GET /api/metrics/stalls", `/api/metrics/stalls?since=${since}`, 200, {
        token: null,
      });
      const body = stalls.body as { now: number; spans: [number, number][] };
      expect(body.now).toBeGreaterThan(since);
      for (const [start, end] of body.spans) expect(end).toBeGreaterThanOrEqual(start);
      await c.conforms("GET /api/metrics/stalls", "/api/metrics/stalls?since=soon", 400, { token: null });
    });
  });

  describe("checks", () => {
    const check = (body: unknown, status: number, token: string | null = c.f.serviceToken) =>
      c.conforms("POST /api/check", "/api/check", status, { token, body });

    it("200 with RateLimit headers, then a denial with Retry-After", async () => {
      const body = { apiKey: c.f.apiKey, route: "GET /v1/items/1", subject: "203.0.113.7" };
      const first = await check(body, 200);
      expect(first.body).toMatchObject({ allowed: true, tenant: c.f.slug, route: "GET /v1/items/:id" });
      expect(first.headers.get("ratelimit")).toMatch(/"items";r=1;t=\d+/);
      expect(first.headers.get("ratelimit-policy")).toMatch(/"items";q=2;w=3600/);
      await check(body, 200);
      const denied = await check(body, 200);
      expect(denied.body).toMatchObject({ allowed: false, reason: "rate_limited" });
      expect(denied.headers.get("retry-after")).toMatch(/^\d+$/);
      await check({ apiKey: "sk_nope_unknown" }, 200); // unknown_key: a decision too
    });

    it("400, 401, 403, 413", async () => {
      await check({ apiKey: c.f.apiKey, cost: -1 }, 400);
      await check({ apiKey: c.f.apiKey }, 401, null);
      await check({ tenant: c.f.otherSlug }, 403);
      await c.conforms("POST /api/check", "/api/check", 413, {
        token: c.f.serviceToken,
        body: "x".repeat(70 * 1024),
      });
    });

    it("batch: 200 with a decision and an error in place, 400, 401, 413", async () => {
      const reply = await c.conforms("POST /api/check/batch", "/api/check/batch", 200, {
        token: c.f.serviceToken,
        body: {
          checks: [
            { tenant: c.f.slug, route: "GET /v1/other" },
            { tenant: c.f.slug, cost: 0 },
          ],
        },
      });
      const results = (reply.body as { results: Record<string, unknown>[] }).results;
      expect(results[0]).toHaveProperty("allowed");
      expect(results[1]).toHaveProperty("error");
      await c.conforms("POST /api/check/batch", "/api/check/batch", 400, {
        token: c.f.serviceToken,
        body: { checks: [] },
      });
      await c.conforms("POST /api/check/batch", "/api/check/batch", 401, {
        token: null,
        body: { checks: [{}] },
      });
      await c.conforms("POST /api/check/batch", "/api/check/batch", 413, {
        token: c.f.serviceToken,
        body: "x".repeat(1100 * 1024),
      });
    });
  });
}
