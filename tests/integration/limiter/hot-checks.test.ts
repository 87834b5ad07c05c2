import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckAnswer } from "@/lib/check/check-answer";
import { CheckService } from "@/lib/check/check-service";
import type { ConfigHolder, VersionListener } from "@/lib/check/config-holder";
import type { ConfigIndex } from "@/lib/check/config-index";
import { buildIndex } from "@/lib/check/config-state";
import { LimiterStore } from "@/lib/check/limiter-store";
import type { Caller } from "@/lib/check/service-auth";
import type { CheckInput } from "@/lib/check/types";
import { ioredisScripts, loadScripts } from "@/lib/shared/redis/ioredis-scripts";
import { checkManyScript, checkScript } from "@/lib/check/limiter/script";
import { shapeSnapshot } from "../../unit/enforce/shape-fixture";
import { connect, RUN } from "./redis";

// The whole-check cache in front of the shapes (lib/enforce/hot-checks.ts), through
// the check service against real Redis. Two checks that differ only in their subject share
// the cached entry (shape, key's part, answer template), yet count separately where a limit
// counts per subject; what can change within a version (the key's expiry, the caller's
// tenants) is checked on every hit, and a whole new version empties the cache (a change to
// one tenant only: tenant-caches.test.ts).

const redis = connect();
const tenantId = `${RUN}-hot`;
// per-subject: 10 an hour; tenant and key: 1,000 an hour; the route's subject log 100 a minute
const snapshot = shapeSnapshot(tenantId);

/** The config holder's part the service reads: the current index and its version listeners. */
class Versions {
  current: ConfigIndex;
  private readonly listeners: VersionListener[] = [];
  constructor(version: number) {
    this.current = this.index(version);
  }
  index(version: number): ConfigIndex {
    const key = (name: string) => ({ tenant: "acme", name, revoked: false, expiresAt: null });
    return buildIndex({
      version,
      snapshot: { ...snapshot, version },
      keys: { hashBackend: key("backend"), hashMobile: key("mobile") },
      serviceTokens: {},
    });
  }
  onVersion(listener: VersionListener): void {
    this.listeners.push(listener);
  }
  onCountersReset(): void {}
  publish(version: number): void {
    this.current = this.index(version);
    for (const listener of this.listeners) listener(this.current, null);
  }
}

const versions = new Versions(1);
let service: CheckService;
const everyone: Caller = { id: "svc", tenants: null };

beforeAll(async () => {
  if (redis.status !== "ready") await once(redis, "ready");
  await loadScripts(redis, [checkScript(), checkManyScript()]);
  const store = new LimiterStore([ioredisScripts(redis, [checkScript(), checkManyScript()])], {
    timeoutMs: 2_000,
  });
  service = new CheckService(versions as unknown as ConfigHolder, store);
});
afterAll(async () => {
  await redis.quit();
});

interface Decision {
  status: number;
  allowed: boolean;
  reason: string;
  remaining: Record<string, number>;
}

function check(subject: string | null, route = "GET /items/1", caller = everyone): Promise<Decision> {
  const input: CheckInput = {
    apiKey: null,
    tenant: "acme",
    key: "backend",
    route,
    subject,
    cost: 1,
    dryRun: false,
  };
  return new Promise((resolve) => {
    service.decide(input, caller, (answer: CheckAnswer) => {
      if (answer.status !== 200)
        return resolve({ status: answer.status, allowed: false, reason: "", remaining: {} });
      const body = JSON.parse(answer.decision.json) as {
        allowed: boolean;
        reason: string;
        limits: { name: string; remaining: number }[];
      };
      const remaining = Object.fromEntries(body.limits.map((l) => [l.name, l.remaining]));
      resolve({ status: 200, allowed: body.allowed, reason: body.reason, remaining });
    });
  });
}

describe("whole checks cached apart from their subject", () => {
  it("share one entry between subjects and count per subject only what counts per subject", async () => {
    const alice = await check("alice");
    // a first sighting builds the shape; the whole check goes in on its second
    expect([service.hot.size, service.shapes.size]).toEqual([0, 1]);
    const bob = await check("bob");
    expect([service.hot.size, service.shapes.size]).toEqual([1, 1]);
    expect(alice.remaining).toEqual({
      "per-tenant": 999,
      "per-key": 999,
      "per-subject": 9,
      "subject-log": 99,
    });
    expect(bob.remaining).toEqual({ "per-tenant": 998, "per-key": 998, "per-subject": 9, "subject-log": 99 });
    for (let i = 0; i < 9; i++) expect((await check("alice")).allowed).toBe(true);
    const spent = await check("alice");
    expect([spent.allowed, spent.reason]).toEqual([false, "rate_limited"]);
    // the deny cache answers alice now; bob still has his own counter
    expect((await check("alice")).allowed).toBe(false);
    const bob2 = await check("bob");
    expect(bob2.allowed).toBe(true);
    expect(bob2.remaining["per-subject"]).toBe(8);
    // every subject since bob was answered from the one entry
    expect([service.hot.size, service.shapes.size]).toEqual([1, 1]);
    // another route id: an entry of its own (from its second sighting), the same shape
    await check("bob", "GET /items/2");
    await check("erin", "GET /items/2");
    expect([service.hot.size, service.shapes.size]).toEqual([2, 1]);
  });

  it("shares one shape between route ids of one pattern, and keeps nothing per raw route", async () => {
    const before = (await check("frank", "GET /items/100")).remaining;
    const [hot, shapes] = [service.hot.size, service.shapes.size];
    // first sightings of three more ids: nothing new built or kept
    const after: Decision[] = [];
    for (const id of [101, 102, 103]) after.push(await check("frank", `GET /items/${id}`));
    expect([service.hot.size, service.shapes.size]).toEqual([hot, shapes]);
    // the counters are the pattern's, not the id's: frank's subject log counts on
    expect(after.map((d) => d.remaining["subject-log"])).toEqual([
      (before["subject-log"] ?? 0) - 1,
      (before["subject-log"] ?? 0) - 2,
      (before["subject-log"] ?? 0) - 3,
    ]);
    expect(after.map((d) => d.remaining["per-subject"])).toEqual([8, 7, 6]);
  });

  it("checks the caller's tenants and the key's expiry on every hit", async () => {
    await check("carol");
    const other: Caller = { id: "other", tenants: new Set(["globex"]) };
    expect((await check("carol", "GET /items/1", other)).status).toBe(403);
    expect((await check("carol")).allowed).toBe(true);
    const key = versions.current.keysByName.get("acme backend");
    if (!key) throw new Error("fixture has no key backend");
    key.expiresAt = Date.now() - 1;
    const expired = await check("carol");
    expect([expired.allowed, expired.reason]).toEqual([false, "expired_key"]);
    key.expiresAt = null;
  });

  it("is emptied by a new version and never serves an entry of another", async () => {
    await check("dave");
    expect(service.hot.size).toBeGreaterThan(0);
    versions.publish(2);
    expect([service.hot.size, service.shapes.size]).toEqual([0, 0]);
    // the same check again, built under version 2
    expect((await check("dave")).allowed).toBe(true);
    expect((await check("dave")).allowed).toBe(true);
    expect(service.hot.size).toBe(1);
  });
});
