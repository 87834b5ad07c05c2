import { describe, expect, it } from "vitest";
import { call } from "../admin/http";
import type { Contract } from "./contract-context";

// Contract topics: counters (state, reset), audit, usage, wrong methods, and the ops tools
// (simulate, lookup, decision log, check health, history, rollback).

export function countersAndOps(c: Contract): void {
  describe("counters, audit and usage", () => {
    it("state 200/400/404 and reset 200/400/403/404", async () => {
      await c.conforms(
        "GET /api/admin/state",
        `/api/admin/state?tenant=${c.f.slug}&route=GET%20/v1/items/1`,
        200,
      );
      await c.conforms("GET /api/admin/state", "/api/admin/state", 400);
      await c.conforms("GET /api/admin/state", "/api/admin/state?tenant=no-such-tenant-x", 404);
      const reset = "POST /api/admin/reset";
      await c.conforms(reset, "/api/admin/reset", 200, {
        body: { tenant: c.f.slug, limit: "items", route: "GET /v1/items/1" },
      });
      await c.conforms(reset, "/api/admin/reset", 400, { body: { tenant: c.f.slug } });
      await c.conforms(reset, "/api/admin/reset", 403, {
        token: c.f.viewerToken,
        body: { tenant: c.f.slug, limit: "items" },
      });
      await c.conforms(reset, "/api/admin/reset", 404, {
        body: { tenant: c.f.slug, limit: "no-such-limit" },
      });
    });

    it("audit 200/400 and usage 200/400/404", async () => {
      const audit = await c.conforms(
        "GET /api/admin/audit",
        `/api/admin/audit?tenant=${c.f.slug}&limit=5`,
        200,
      );
      expect((audit.body as { entries: unknown[] }).entries.length).toBeGreaterThan(0);
      await c.conforms("GET /api/admin/audit", "/api/admin/audit?limit=0", 400);
      await c.conforms("GET /api/admin/usage", `/api/admin/usage?tenant=${c.f.slug}&step=1m`, 200);
      await c.conforms("GET /api/admin/usage", "/api/admin/usage?step=0", 400);
      await c.conforms("GET /api/admin/usage", "/api/admin/usage?tenant=no-such-tenant-x", 404);
    });
  });

  describe("wrong methods", () => {
    it("every operation's path answers another method 405 as the document declares", async () => {
      for (const operation of c.validator.operations()) {
        const path = (operation.split(" ")[1] ?? "")
          .replace("{slug}", c.f.slug)
          .replace("{name}", "x")
          .replace("{id}", "x");
        const reply = await call("PATCH", path); // no operation of the API is a PATCH
        expect({ operation, status: reply.status, problems: c.validator.problems(operation, reply) }).toEqual(
          {
            operation,
            status: 405,
            problems: [],
          },
        );
      }
    });
  });

  describe("ops tools", () => {
    it("simulate and lookup 200/400/404", async () => {
      const route = "route=GET%20/v1/items/1";
      const sim = await c.conforms(
        "GET /api/admin/simulate",
        `/api/admin/simulate?tenant=${c.f.slug}&${route}&cost=2`,
        200,
      );
      expect((sim.body as { limits: { name: string }[] }).limits.map((l) => l.name)).toContain("items");
      await c.conforms("GET /api/admin/simulate", `/api/admin/simulate?tenant=${c.f.slug}&cost=0`, 400);
      await c.conforms("GET /api/admin/simulate", `/api/admin/simulate?tenant=${c.f.otherSlug}`, 404, {
        token: c.f.viewerToken,
      });
      await c.conforms(
        "GET /api/admin/lookup",
        `/api/admin/lookup?tenant=${c.f.slug}&subject=203.0.113.7`,
        200,
      );
      await c.conforms("GET /api/admin/lookup", "/api/admin/lookup", 400);
      await c.conforms("GET /api/admin/lookup", `/api/admin/lookup?tenant=${c.f.slug}&key=no-such-key`, 404);
    });

    it("decision log 200 (JSON and CSV)/400/404 and check health 200/400/403", async () => {
      const log = "GET /api/admin/decisions";
      await c.conforms(log, `/api/admin/decisions?tenant=${c.f.slug}&outcome=rejected&limit=5`, 200);
      const csv = await c.conforms(log, `/api/admin/decisions?tenant=${c.f.slug}&format=csv`, 200);
      expect(csv.text.startsWith("at,key,route,subject,outcome,reason,denied_by\r\n")).toBe(true);
      await c.conforms(log, `/api/admin/decisions?tenant=${c.f.slug}&outcome=maybe`, 400);
      await c.conforms(log, `/api/admin/decisions?tenant=${c.f.otherSlug}`, 404, { token: c.f.viewerToken });
      const health = "GET /api/admin/check-health";
      await c.conforms(health, "/api/admin/check-health?minutes=5", 200);
      await c.conforms(health, "/api/admin/check-health?minutes=0", 400);
      await c.conforms(health, "/api/admin/check-health", 403, { token: c.f.viewerToken });
    });

    it("history 200/400/404 and rollback 200/400/403/404/422", async () => {
      const history = await c.conforms(
        "GET /api/admin/history",
        `/api/admin/history?tenant=${c.f.slug}&limit=5`,
        200,
      );
      const versions = (history.body as { versions: { version: number }[] }).versions;
      expect(versions.length).toBeGreaterThan(0);
      await c.conforms("GET /api/admin/history", "/api/admin/history?limit=0", 400);
      await c.conforms("GET /api/admin/history", `/api/admin/history?tenant=${c.f.otherSlug}`, 404, {
        token: c.f.viewerToken,
      });
      const rollback = "POST /api/admin/rollback";
      const version = versions.at(-1)?.version ?? 1;
      await c.conforms(rollback, "/api/admin/rollback", 200, {
        body: { version, tenant: c.f.slug, dryRun: true },
      });
      await c.conforms(rollback, "/api/admin/rollback", 400, { body: { version: "x" } });
      await c.conforms(rollback, "/api/admin/rollback", 403, {
        token: c.f.viewerToken,
        body: { version, tenant: c.f.slug },
      });
      await c.conforms(rollback, "/api/admin/rollback", 404, { body: { version: 2_000_000_000 } });
      // a version from before the contract's tenant existed: not found for that tenant
      await c.conforms(rollback, "/api/admin/rollback", 404, { body: { version: 1, tenant: c.f.slug } });
    });
  });
}
