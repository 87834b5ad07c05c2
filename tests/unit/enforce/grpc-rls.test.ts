import { describe, expect, it } from "vitest";
import { descriptorPath, descriptorSubject, domainSlug } from "@sluice/client/envoy";
import { parseRlsRequest } from "@/lib/check/grpc/rls-request";
import { durationOf, rlsResponse, unitOf } from "@/lib/check/grpc/rls-response";
import { gatewayHeaders } from "@/lib/check/grpc/gateway-headers";
import { authorizationOf } from "@/lib/check/grpc/rls-handler";
import { renderBody } from "@/lib/check/render/rendered";
import type { DecisionBody, LimitReport } from "@/lib/check/types";

// Envoy's ShouldRateLimit mapped onto checks and back (docs/envoy.md), without a server:
// the integration tests in tests/integration/envoy/ run it against the apps.

const entry = (key: string, value: string) => ({ key, value });

describe("descriptors as checks", () => {
  it("makes a domain a tenant slug", () => {
    expect(domainSlug("edge_proxy.PerIP")).toBe("edge-proxy-perip");
    expect(domainSlug("x".repeat(64))).toBeNull();
    expect(domainSlug("_.")).toBeNull();
  });

  it("makes the entries a path, each part percent-encoded (a / or * stays in its segment)", () => {
    expect(descriptorPath([entry("generic_key", "foo")])).toBe("/generic_key/foo");
    expect(descriptorPath([entry("path", "/v1/a b"), entry("k*", "*")])).toBe("/path/%2Fv1%2Fa%20b/k%2A/%2A");
  });

  it("sends a path too long for a subject as its SHA-256", () => {
    const long = descriptorPath([entry("k", "v".repeat(300))]);
    expect(descriptorSubject(long)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(descriptorSubject("/k/v")).toBe("/k/v");
  });

  it("turns a request into one check per descriptor, hits_addend into the cost", () => {
    const parsed = parseRlsRequest({
      domain: "Acme_Edge",
      hits_addend: 3,
      descriptors: [
        { entries: [entry("remote_address", "192.0.2.1")] },
        { entries: [entry("generic_key", "foo")], hits_addend: { value: 5 } },
        { entries: [entry("generic_key", "probe")], hits_addend: {} },
        { entries: [{ key: "header_match" }] },
      ],
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.tenant).toBe("acme-edge");
    expect(parsed.value.checks).toEqual([
      {
        apiKey: null,
        tenant: "acme-edge",
        key: null,
        route: "POST /remote_address/192.0.2.1",
        subject: "/remote_address/192.0.2.1",
        cost: 3,
        dryRun: false,
      },
      expect.objectContaining({ route: "POST /generic_key/foo", cost: 5, dryRun: false }),
      // a descriptor's 0 asks without counting
      expect.objectContaining({ route: "POST /generic_key/probe", cost: 1, dryRun: true }),
      // an empty value (absent on the wire) is the empty string
      expect.objectContaining({ route: "POST /header_match/", cost: 3 }),
    ]);
    // the request's 0 (absent) means 1, as in Envoy
    const one = parseRlsRequest({ domain: "a", descriptors: [{ entries: [entry("k", "v")] }] });
    expect(one.ok && one.value.checks[0]?.cost).toBe(1);
  });

  it("refuses bad requests naming the field", () => {
    const message = (request: unknown): string => {
      const parsed = parseRlsRequest(request);
      return parsed.ok ? "" : parsed.message;
    };
    const descriptors = [{ entries: [entry("k", "v")] }];
    expect(message({ descriptors })).toMatch(/^domain: /);
    expect(message({ domain: "x".repeat(70), descriptors })).toBe(
      `domain: "${"x".repeat(70)}" names no tenant (1-63 of a-z 0-9 - once lower-cased, other characters read as "-", with a letter or digit)`,
    );
    expect(message({ domain: "a", descriptors: [] })).toMatch(/^descriptors: must have at least one/);
    expect(message({ domain: "a", descriptors: Array(33).fill(descriptors[0]) })).toMatch(
      /^descriptors: must have at most 32/,
    );
    expect(message({ domain: "a", descriptors: [{ entries: [] }] })).toMatch(/^descriptors\[0\]\.entries: /);
    expect(message({ domain: "a", descriptors: [{ entries: [{ value: "v" }] }] })).toMatch(
      /^descriptors\[0\]\.entries\[0\]\.key: /,
    );
    expect(message({ domain: "a", descriptors, hits_addend: 1_000_001 })).toMatch(/^hits_addend: /);
    expect(
      message({ domain: "a", descriptors: [{ ...descriptors[0], hits_addend: { value: 2e6 } }] }),
    ).toMatch(/^descriptors\[0\]\.hits_addend\.value: /);
    expect(message({ domain: "a", descriptors: [{ entries: [entry("k", "v".repeat(2100))] }] })).toMatch(
      /^descriptors\[0\]\.entries: longer than 2048/,
    );
  });
});

const limit = (over: Partial<LimitReport>): LimitReport => ({
  name: "per-min",
  level: "route",
  by: "tenant",
  algorithm: "fixed_window",
  limit: 10,
  windowMs: 60_000,
  remaining: 4,
  resetMs: 1_500,
  allowed: true,
  mode: "enforce",
  ...over,
});

function decision(limits: LimitReport[], allowed = true, deciding = 0): DecisionBody {
  const top = limits[deciding];
  return {
    allowed,
    reason: allowed ? "ok" : "rate_limited",
    tenant: "acme",
    key: null,
    route: "* /generic_key/foo",
    limit: top?.limit ?? null,
    remaining: top?.remaining ?? null,
    resetMs: top?.resetMs ?? null,
    retryAfterMs: allowed ? null : (top?.resetMs ?? null),
    waitMs: 0,
    limits,
    degraded: false,
    configVersion: 1,
  };
}

describe("decisions as a RateLimitResponse", () => {
  it("maps windows to Envoy's units, others UNKNOWN", () => {
    expect(
      [1_000, 60_000, 3_600_000, 86_400_000, 7 * 86_400_000, 30 * 86_400_000, 365 * 86_400_000, 10_000].map(
        unitOf,
      ),
    ).toEqual(["SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "YEAR", "UNKNOWN"]);
    expect(durationOf(61_250)).toEqual({ seconds: 61, nanos: 250_000_000 });
  });

  it("names the deciding limit per descriptor; the first denied one's headers win", () => {
    const shadow = limit({ name: "watch", mode: "shadow", remaining: 0, allowed: false });
    const ok = renderBody(decision([shadow, limit({ remaining: 1 })], true, 1));
    const denied = renderBody(
      decision([limit({ name: "per-ip", limit: 2, windowMs: 1_000, remaining: 0, allowed: false })], false),
    );
    const none = renderBody(decision([]));
    const response = rlsResponse([ok, denied, none]);
    expect(response.overall_code).toBe("OVER_LIMIT");
    expect(response.statuses).toEqual([
      {
        code: "OK",
        current_limit: { name: "per-min", requests_per_unit: 10, unit: "MINUTE" },
        limit_remaining: 1,
        duration_until_reset: { seconds: 1, nanos: 500_000_000 },
      },
      {
        code: "OVER_LIMIT",
        current_limit: { name: "per-ip", requests_per_unit: 2, unit: "SECOND" },
        limit_remaining: 0,
        duration_until_reset: { seconds: 1, nanos: 500_000_000 },
      },
      { code: "OK" },
    ]);
    expect(response.response_headers_to_add).toEqual([
      { key: "ratelimit-policy", value: '"per-ip";q=2;w=1' },
      { key: "ratelimit", value: '"per-ip";r=0;t=2' },
      { key: "retry-after", value: "2" },
    ]);
  });

  it("skips a shadow limit with the same figures, and reads a limit under a temporary override", () => {
    const shadow = limit({ name: "watch", mode: "shadow" });
    const overridden = limit({
      name: "raised",
      limit: 20,
      override: { id: "ov1", endsAt: "2030-01-01T00:00:00.000Z" },
    });
    const [first, second] = rlsResponse([
      renderBody(decision([shadow, limit({})], true, 1)),
      renderBody(decision([overridden], true)),
    ]).statuses;
    expect(first?.current_limit?.name).toBe("per-min");
    expect(second?.current_limit).toEqual({ name: "raised", requests_per_unit: 20, unit: "MINUTE" });
  });

  it("takes the headers of the descriptor with the least left when all are allowed", () => {
    const a = renderBody(decision([limit({ name: "a", remaining: 5 })]));
    const b = renderBody(decision([limit({ name: "b", remaining: 2 })]));
    const response = rlsResponse([a, b]);
    expect(response.overall_code).toBe("OK");
    expect(response.response_headers_to_add.map((h) => h.value)).toEqual(['"b";q=10;w=60', '"b";r=2;t=2']);
    expect(rlsResponse([renderBody(decision([]))]).response_headers_to_add).toEqual([]);
  });

  it("reads the header lines of a decision as Envoy's HeaderValues", () => {
    const rendered = renderBody(decision([limit({})]));
    expect(gatewayHeaders({ ...rendered, headers: "a: 1\r\nb: x: y\r\n" })).toEqual([
      { key: "a", value: "1" },
      { key: "b", value: "x: y" },
    ]);
  });
});

describe("the gRPC front's edges", () => {
  it("reads the token from authorization or x-sluice-token", () => {
    expect(authorizationOf({ authorization: "Bearer abc" })).toBe("Bearer abc");
    expect(authorizationOf({ "x-sluice-token": "abc" })).toBe("Bearer abc");
    expect(authorizationOf({ "x-sluice-token": "Bearer abc" })).toBeUndefined();
    expect(authorizationOf({})).toBeUndefined();
  });
});
