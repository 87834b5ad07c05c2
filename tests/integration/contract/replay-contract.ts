import { describe, it } from "vitest";
import type { Contract } from "./contract-context";

// Contract topic: what-if replay.

export function replayContract(c: Contract): void {
  describe("what-if replay", () => {
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
      const body = { tenant: c.f.slug, by: "subject", current: null, proposed, minutes: 5 };
      await c.conforms(op, "/api/admin/replay", 200, { body });
      await c.conforms(op, "/api/admin/replay", 200, { body: { ...body, by: "key" } });
      await c.conforms(op, "/api/admin/replay", 400, { body: { ...body, minutes: 0 } });
      await c.conforms(op, "/api/admin/replay", 401, { token: null, body });
      await c.conforms(op, "/api/admin/replay", 404, {
        token: c.f.viewerToken,
        body: { ...body, tenant: c.f.otherSlug },
      });
    });
  });
}
