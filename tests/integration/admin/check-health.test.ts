// The check endpoint's health over HTTP and from Redis (real PostgreSQL and Redis): the
// running fronts publish their per-minute figures and the operators' endpoint shows them;
// two fronts' summaries of one minute add up, their latency quantiles read from the summed
// buckets; tenant roles are refused.
import { afterAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import type { RedisClient } from "@/lib/shared/redis/redis";
import { HealthPublisher } from "@/lib/check/health/health-publisher";
import { zeroFigures, type HealthFigures } from "@/lib/check/health/health-figures";
import { readCheckHealth } from "@/lib/control/ops/check-health";
import { ForbiddenError } from "@/lib/control/errors/errors";
import { waitFor } from "../../wait-for";
import { call, createAdminToken, type ErrorReply } from "./http";

interface Row {
  requests: number;
  p50Ms: number | null;
  p99Ms: number | null;
  fronts: number;
  errors: number;
  degraded: number;
}
interface Health {
  minutes: Row[];
  total: Row;
}

const client = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:63799", { protocol: 2 });

afterAll(() => client.disconnect());

function figures(requests: number, latency: number[], degraded: number): HealthFigures {
  const f = zeroFigures();
  f.requests = requests;
  f.allowed = requests - degraded;
  f.degraded = degraded;
  f.causes.redis_timeout = degraded;
  f.latency = [...latency, ...new Array<number>(11 - latency.length).fill(0)];
  return f;
}

describe("check health", () => {
  it("shows the running fronts' checks of the last minutes to an operator", async () => {
    for (let i = 0; i < 20; i++) {
      const reply = await call("POST", "/api/check", { body: { tenant: "acme", dryRun: true } });
      expect(reply.status).toBe(200);
    }
    // each front publishes every 10 s
    let health: Health | null = null;
    await waitFor(
      async () => {
        const reply = await call<Health>("GET", "/api/admin/check-health?minutes=5");
        health = reply.body;
        return reply.status === 200 && reply.body.total.requests >= 20;
      },
      "the fronts' health summaries",
      40_000,
      500,
    );
    const total = (health as Health | null)?.total;
    expect(total?.fronts).toBeGreaterThanOrEqual(1);
    expect(total?.p50Ms).toBeGreaterThan(0);
    expect(total?.p99Ms).toBeGreaterThanOrEqual(total?.p50Ms ?? 0);
    expect(total?.p99Ms).toBeLessThanOrEqual(1_000);
  });

  it("refuses tenant roles", async () => {
    const admin = await createAdminToken({ name: "health admin", role: "admin", tenant: "acme" });
    const reply = await call<ErrorReply>("GET", "/api/admin/check-health", { token: admin });
    expect(reply.status).toBe(403);
    const bad = await call<ErrorReply>("GET", "/api/admin/check-health?minutes=500");
    expect(bad.status).toBe(400);
    expect(bad.body.error.path).toBe("minutes");
  });

  it("sums the fronts of a minute and reads the quantiles from the summed buckets", async () => {
    const prefix = `test:health:${Date.now().toString(36)}:`;
    const cumulative = [figures(0, [], 0), figures(0, [], 0)];
    const fronts = cumulative.map(
      (_, i) =>
        new HealthPublisher({
          redis: () => client as unknown as RedisClient,
          prefix,
          read: () => cumulative[i] as HealthFigures,
          id: `front-${i}`,
        }),
    );
    // front 0: 90 checks under 0.5 ms; front 1: 10 checks between 50 and 100 ms, 4 degraded
    cumulative[0] = figures(90, [90], 0);
    cumulative[1] = figures(10, [0, 0, 0, 0, 0, 0, 0, 10], 4);
    await Promise.all(fronts.map((f) => f.publish()));
    const health = await readCheckHealth({ kind: "system", label: "test" }, { minutes: 2 }, prefix);
    const t = health.total;
    expect(t).toMatchObject({ fronts: 2, requests: 100, degraded: 4, allowed: 96 });
    expect(t.causes.redis_timeout).toBe(4);
    expect(t.p50Ms).toBeGreaterThan(0);
    expect(t.p50Ms).toBeLessThanOrEqual(0.5);
    expect(t.p99Ms).toBeGreaterThan(50);
    expect(t.p99Ms).toBeLessThanOrEqual(100);
    // a later reading adds only its increase
    cumulative[0] = figures(95, [95], 0);
    await fronts[0]?.publish();
    const again = await readCheckHealth({ kind: "system", label: "test" }, { minutes: 2 }, prefix);
    expect(again.total.requests).toBe(105);
    await expect(
      readCheckHealth(
        { kind: "user", id: "u", email: "u@x.test", name: "U", isOperator: false, memberships: new Map() },
        {},
        prefix,
      ),
    ).rejects.toBeInstanceOf(ForbiddenError);
  });
});
