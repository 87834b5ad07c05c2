import { describe, expect, it } from "vitest";
import { resolveRoutes } from "@/lib/config/compile";
import { RouteCache } from "@/lib/enforce/route-cache";
import { shapeSnapshot } from "./shape-fixture";

const snapshot = shapeSnapshot("T1");

describe("RouteCache", () => {
  it("answers as the matchers do, for matching, unmatched and absent routes", () => {
    const cache = new RouteCache();
    for (const route of ["GET /items/1", "GET /items/2", "POST /items/1", "GET /other", null]) {
      expect(cache.resolve(snapshot, "acme", route)).toEqual(resolveRoutes(snapshot, "acme", route));
      // a second time from the cache, the same answer
      expect(cache.resolve(snapshot, "acme", route)).toEqual(resolveRoutes(snapshot, "acme", route));
    }
    expect(cache.size).toBe(4);
  });

  it("keeps each tenant within its share without emptying another's", () => {
    const cache = new RouteCache(10, 100);
    cache.resolve(snapshot, "globex", "GET /items/1");
    for (let i = 0; i < 1_000; i++) {
      cache.resolve(snapshot, "acme", `GET /items/${i}`);
      expect(cache.size).toBeLessThanOrEqual(11);
    }
    // globex's entry survived acme's flood: asking again adds nothing
    const size = cache.size;
    cache.resolve(snapshot, "globex", "GET /items/1");
    expect(cache.size).toBe(size);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it("stays within its total however many tenants fill their shares", () => {
    const cache = new RouteCache(10, 100);
    for (let t = 0; t < 50; t++)
      for (let i = 0; i < 10; i++) {
        cache.resolve(snapshot, `t${t}`, `GET /items/${i}`);
        expect(cache.size).toBeLessThanOrEqual(100);
      }
    expect(cache.size).toBeGreaterThan(0);
  });
});
