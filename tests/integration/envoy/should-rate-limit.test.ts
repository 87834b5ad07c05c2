import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { status } from "@grpc/grpc-js";
import { FREE_PLAN_OFF, serviceToken, unique } from "../check/setup";
import { APP_URL } from "../check/http";
import { waitFor } from "../../wait-for";
import { auth, closeEnvoyClients, generic, publishDomain } from "./envoy-setup";
import { GRPC_ADDRESS, GRPC_ADDRESS_2, rateLimited, shouldRateLimit, type Descriptor } from "./rls-client";

// Envoy's ShouldRateLimit against the running apps (docs/envoy.md): a domain is a tenant, each
// descriptor one check on the route `POST /key/value/...` with that path as its subject.

const domain = unique("envoy");
const other = unique("envoy-other");

const remote = (address: string): Descriptor => ({ entries: [{ key: "remote_address", value: address }] });

beforeAll(async () => {
  await publishDomain(
    domain,
    [
      {
        pattern: "* /generic_key/foo",
        limits: [{ name: "foo-per-min", by: "tenant", algorithm: "fixed_window", limit: 3, window: "1m" }],
      },
      {
        pattern: "* /generic_key/costly",
        limits: [{ name: "costly", by: "tenant", algorithm: "fixed_window", limit: 10, window: "1h" }],
      },
      {
        pattern: "* /generic_key/odd",
        limits: [{ name: "odd-window", by: "tenant", algorithm: "fixed_window", limit: 50, window: "10s" }],
      },
      {
        pattern: "* /generic_key/watched",
        limits: [
          {
            name: "watched",
            by: "tenant",
            algorithm: "fixed_window",
            limit: 1,
            window: "1h",
            mode: "shadow",
          },
        ],
      },
      {
        pattern: "* /remote_address/:address",
        limits: [{ name: "per-ip", by: "subject", algorithm: "fixed_window", limit: 2, window: "1h" }],
      },
    ],
    [{ slug: other, plan: "free", limits: FREE_PLAN_OFF }],
  );
});

afterAll(closeEnvoyClients);

describe("ShouldRateLimit decisions", () => {
  it("answers each descriptor in order: code, the deciding limit, remaining, reset, headers", async () => {
    const response = await rateLimited(
      { domain, descriptors: [generic("foo"), remote("192.0.2.1"), generic("nothing-here")] },
      auth,
    );
    expect(response.overall_code).toBe("OK");
    expect(response.statuses).toHaveLength(3);
    const [foo, ip, none] = response.statuses;
    expect(foo).toMatchObject({
      code: "OK",
      current_limit: { name: "foo-per-min", requests_per_unit: 3, unit: "MINUTE" },
      limit_remaining: 2,
    });
    const reset = foo!.duration_until_reset!;
    expect(reset.seconds * 1000 + reset.nanos / 1e6).toBeGreaterThan(0);
    expect(reset.seconds * 1000 + reset.nanos / 1e6).toBeLessThanOrEqual(60_000);
    expect(ip).toMatchObject({
      code: "OK",
      current_limit: { name: "per-ip", requests_per_unit: 2, unit: "HOUR" },
      limit_remaining: 1,
    });
    // no limit on the route: allowed, no current limit (as Envoy's own service answers)
    expect(none!.code).toBe("OK");
    expect(none!.current_limit ?? null).toBeNull();
    // the headers of the descriptor with the least left: per-ip, 1 of 2
    const headers = Object.fromEntries(response.response_headers_to_add.map((h) => [h.key, h.value]));
    expect(headers["ratelimit-policy"]).toBe('"per-ip";q=2;w=3600');
    expect(headers["ratelimit"]).toMatch(/^"per-ip";r=1;t=\d+$/);
    expect(headers["retry-after"]).toBeUndefined();
  });

  it("says OVER_LIMIT for the descriptor over its limit, and overall, with Retry-After", async () => {
    for (let i = 0; i < 2; i++) await rateLimited({ domain, descriptors: [generic("foo")] }, auth);
    const response = await rateLimited({ domain, descriptors: [remote("192.0.2.50"), generic("foo")] }, auth);
    expect(response.overall_code).toBe("OVER_LIMIT");
    expect(response.statuses.map((s) => s.code)).toEqual(["OK", "OVER_LIMIT"]);
    expect(response.statuses[1]).toMatchObject({
      limit_remaining: 0,
      current_limit: { name: "foo-per-min" },
    });
    const headers = Object.fromEntries(response.response_headers_to_add.map((h) => [h.key, h.value]));
    expect(headers["ratelimit"]).toMatch(/^"foo-per-min";r=0;t=\d+$/);
    expect(Number(headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(headers["retry-after"])).toBeLessThanOrEqual(60);
  });

  it("counts a key without a value per value (the subject), and across both servers", async () => {
    const a = remote("198.51.100.7");
    expect((await rateLimited({ domain, descriptors: [a] }, auth)).overall_code).toBe("OK");
    expect((await rateLimited({ domain, descriptors: [a] }, auth, GRPC_ADDRESS_2)).overall_code).toBe("OK");
    expect((await rateLimited({ domain, descriptors: [a] }, auth)).overall_code).toBe("OVER_LIMIT");
    // another value has a counter of its own (its remaining is not asserted: on a loaded
    // machine this one call may be answered degraded, which reports no count)
    const b = await rateLimited({ domain, descriptors: [remote("198.51.100.8")] }, auth);
    expect(b.statuses[0]).toMatchObject({ code: "OK" });
  });

  it("takes hits_addend as the cost: the request's, a descriptor's own, 0 counting nothing", async () => {
    const costly = generic("costly");
    const first = await rateLimited({ domain, descriptors: [costly], hits_addend: 4 }, auth);
    expect(first.statuses[0]!.limit_remaining).toBe(6);
    const own = await rateLimited(
      { domain, descriptors: [{ ...costly, hits_addend: { value: 3 } }], hits_addend: 4 },
      auth,
    );
    expect(own.statuses[0]!.limit_remaining).toBe(3);
    const probe = await rateLimited(
      { domain, descriptors: [{ ...costly, hits_addend: { value: 0 } }] },
      auth,
    );
    expect(probe.statuses[0]).toMatchObject({ code: "OK", limit_remaining: 2 });
    const after = await rateLimited({ domain, descriptors: [costly] }, auth);
    expect(after.statuses[0]!.limit_remaining).toBe(2);
    const over = await rateLimited({ domain, descriptors: [costly], hits_addend: 5 }, auth);
    expect(over.statuses[0]!.code).toBe("OVER_LIMIT");
  });

  it("names a window that is no Envoy unit UNKNOWN, and never denies on a shadow limit", async () => {
    const odd = await rateLimited({ domain, descriptors: [generic("odd")] }, auth);
    expect(odd.statuses[0]!.current_limit).toMatchObject({
      name: "odd-window",
      requests_per_unit: 50,
      unit: "UNKNOWN",
    });
    for (let i = 0; i < 3; i++) {
      const watched = await rateLimited({ domain, descriptors: [generic("watched")] }, auth);
      expect(watched.overall_code).toBe("OK");
    }
  });
});

describe("ShouldRateLimit in the metrics", () => {
  it("counts calls as endpoint grpc by gRPC status, and their checks as decisions", async () => {
    const count = async (pattern: RegExp): Promise<number> => {
      const text = await (await fetch(`${APP_URL}/api/metrics`)).text();
      return Number(pattern.exec(text)?.[1] ?? 0);
    };
    const ok = /^sluice_check_requests_total\{endpoint="grpc",status="0"\} (\d+)$/m;
    const unauthenticated = /^sluice_check_requests_total\{endpoint="grpc",status="16"\} (\d+)$/m;
    const decisions = /^sluice_checks_total\{outcome="allowed",reason="ok"\} (\d+)$/m;
    const before = [await count(ok), await count(unauthenticated), await count(decisions)];
    await rateLimited({ domain, descriptors: [generic("m1"), generic("m2")] }, auth);
    await shouldRateLimit({ domain, descriptors: [generic("m1")] }, {});
    const after = [await count(ok), await count(unauthenticated), await count(decisions)];
    expect(after[0]! - before[0]!).toBe(1);
    expect(after[1]! - before[1]!).toBe(1);
    expect(after[2]! - before[2]!).toBe(2);
  });
});

describe("ShouldRateLimit refusals", () => {
  const request = { domain, descriptors: [generic("anything")] };

  it("UNAUTHENTICATED without a token or with an unknown one", async () => {
    const none = await shouldRateLimit(request, {});
    expect(none).toMatchObject({ ok: false, code: status.UNAUTHENTICATED });
    const unknown = await shouldRateLimit(request, { authorization: "Bearer not-a-token" });
    expect(unknown).toMatchObject({ ok: false, code: status.UNAUTHENTICATED });
  });

  it("takes a service token as x-sluice-token too, limited to its tenants", async () => {
    const token = await serviceToken([domain]);
    await waitForToken(token);
    const mine = await shouldRateLimit(request, { "x-sluice-token": token });
    expect(mine.ok).toBe(true);
    const theirs = await shouldRateLimit({ ...request, domain: other }, { authorization: `Bearer ${token}` });
    expect(theirs).toMatchObject({ ok: false, code: status.PERMISSION_DENIED });
  });

  it("NOT_FOUND for a domain that names no tenant", async () => {
    const outcome = await shouldRateLimit({ ...request, domain: unique("nobody") }, auth);
    expect(outcome).toMatchObject({ ok: false, code: status.NOT_FOUND });
    if (!outcome.ok) expect(outcome.details).toMatch(/^domain: no tenant /);
  });

  it("INVALID_ARGUMENT naming the field", async () => {
    const empty = await shouldRateLimit({ domain, descriptors: [] }, auth);
    expect(empty).toMatchObject({ ok: false, code: status.INVALID_ARGUMENT });
    if (!empty.ok) expect(empty.details).toMatch(/^descriptors: /);
    const noDomain = await shouldRateLimit({ domain: "", descriptors: [generic("x")] }, auth);
    if (noDomain.ok) throw new Error("expected an error");
    expect(noDomain.details).toMatch(/^domain: /);
    const noKey = await shouldRateLimit(
      { domain, descriptors: [{ entries: [{ key: "", value: "v" }] }] },
      auth,
    );
    if (noKey.ok) throw new Error("expected an error");
    expect(noKey.details).toMatch(/^descriptors\[0\]\.entries\[0\]\.key: /);
    const tooMuch = await shouldRateLimit(
      { domain, descriptors: [generic("x")], hits_addend: 2_000_000 },
      auth,
    );
    if (tooMuch.ok) throw new Error("expected an error");
    expect(tooMuch.details).toMatch(/^hits_addend: /);
  });
});

/** A new token reaches the servers with the next config version. */
async function waitForToken(token: string): Promise<void> {
  for (const address of [GRPC_ADDRESS, GRPC_ADDRESS_2]) {
    const sent = { authorization: `Bearer ${token}` };
    await waitFor(
      async () => (await shouldRateLimit({ domain, descriptors: [generic("t")] }, sent, address)).ok,
      `the new token on ${address}`,
      5_000,
    );
  }
}
