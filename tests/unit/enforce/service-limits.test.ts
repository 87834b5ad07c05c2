import { describe, expect, it } from "vitest";
import { overServiceLimit, ServiceLimits } from "@/lib/check/fair/service-limits";

// A plan's service limit on one front: a token bucket per tenant, a batch taking one unit
// per check, and the 429 it answers over it.

const limit = { checksPerSecond: 100, burst: 1000 };

describe("service limits", () => {
  it("admits the burst at once, then the rate", () => {
    const limits = new ServiceLimits();
    expect(limits.take("a", limit, 1000, 0)).toBe(0);
    // empty: one check more needs 10 ms at 100/s
    expect(limits.take("a", limit, 1, 0)).toBe(10);
    expect(limits.take("a", limit, 1, 10)).toBe(0);
    // a second later, 100 more
    expect(limits.take("a", limit, 100, 1010)).toBe(0);
    expect(limits.take("a", limit, 50, 1010)).toBe(500);
  });

  it("keeps one bucket per tenant and never fills past the burst", () => {
    const limits = new ServiceLimits();
    expect(limits.take("a", limit, 1000, 0)).toBe(0);
    expect(limits.take("b", limit, 1000, 0)).toBe(0);
    expect(limits.take("a", limit, 1, 3_600_000)).toBe(0);
    expect(limits.remaining("a")).toBe(999);
  });

  it("refuses a batch larger than the burst for good, without taking from the bucket", () => {
    const limits = new ServiceLimits();
    expect(limits.take("a", limit, 1001, 0)).toBe(Infinity);
    expect(limits.take("a", limit, 1000, 0)).toBe(0);
  });

  it("answers 429 with the RateLimit fields and Retry-After in whole seconds", () => {
    const answer = overServiceLimit(limit, 1500, 3);
    expect(answer.status).toBe(429);
    expect(answer.headers).toContain('ratelimit-policy: "sluice-service";q=100;w=1\r\n');
    expect(answer.headers).toContain('ratelimit: "sluice-service";r=3;t=2\r\n');
    expect(answer.headers).toContain("retry-after: 2\r\n");
    expect(String(answer.body)).toContain('"code":"over_service_limit"');
  });
});
