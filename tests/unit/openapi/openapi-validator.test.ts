// The contract test's validator must be able to fail: the document generated in process,
// a correct answer passes, and each kind of wrong answer is caught.
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/control/openapi/generate";
import { OpenApiValidator, type OpenApiDoc } from "../../integration/contract/openapi-validator";

const doc = openApiDocument() as unknown as OpenApiDoc;

const decision = {
  allowed: false,
  reason: "rate_limited",
  tenant: "acme",
  key: "web",
  route: "GET /v1/items/:id",
  limit: 10,
  remaining: 0,
  resetMs: 900,
  retryAfterMs: 100,
  waitMs: 0,
  limits: [
    {
      name: "rps",
      level: "tenant",
      by: "tenant",
      algorithm: "gcra",
      limit: 10,
      windowMs: 1000,
      remaining: 0,
      resetMs: 900,
      allowed: false,
      mode: "enforce",
    },
  ],
  degraded: false,
  configVersion: 3,
};

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  return {
    status,
    headers: new Headers({ "content-type": "application/json", ...headers }),
    text: typeof body === "string" ? body : JSON.stringify(body),
  };
}

describe("the contract validator", () => {
  const validator = new OpenApiValidator(doc);

  it("passes a conforming check answer with its RateLimit headers", () => {
    const headers = { "ratelimit-policy": '"rps";q=10;w=1', ratelimit: '"rps";r=0;t=1', "retry-after": "1" };
    expect(validator.problems("POST /api/check", answer(200, decision, headers))).toEqual([]);
  });

  it("catches a wrong body: a missing field, a wrong type, an unknown reason, an extra field", () => {
    const { waitMs: _dropped, ...missing } = decision;
    expect(validator.problems("POST /api/check", answer(200, missing)).join("\n")).toMatch(/waitMs/);
    expect(
      validator.problems("POST /api/check", answer(200, { ...decision, remaining: "0" })).length,
    ).toBeGreaterThan(0);
    expect(
      validator.problems("POST /api/check", answer(200, { ...decision, reason: "nope" })).length,
    ).toBeGreaterThan(0);
    expect(
      validator.problems("POST /api/check", answer(200, { ...decision, extra: 1 })).length,
    ).toBeGreaterThan(0);
    const badLimit = { ...decision, limits: [{ ...decision.limits[0], algorithm: "magic" }] };
    expect(validator.problems("POST /api/check", answer(200, badLimit)).join("\n")).toMatch(
      /limits\/0\/algorithm/,
    );
  });

  it("catches a malformed RateLimit header, an undeclared status and an undeclared content type", () => {
    const bad = validator.problems("POST /api/check", answer(200, decision, { ratelimit: "rps=0" }));
    expect(bad.join("\n")).toMatch(/header RateLimit/);
    expect(validator.problems("POST /api/check", answer(418, decision))).toEqual([
      "POST /api/check: status 418 is not declared",
    ]);
    const html = { status: 200, headers: new Headers({ "content-type": "text/html" }), text: "<p>" };
    expect(validator.problems("POST /api/check", html)[0]).toMatch(/content-type "text\/html"/);
  });

  it("catches an error body with an unknown code and a missing required admin header", () => {
    const error = { error: { code: "oops", message: "x" } };
    expect(validator.problems("POST /api/check", answer(400, error)).length).toBeGreaterThan(0);
    const keys = answer(200, { keys: [] }, { "cache-control": "no-store" });
    expect(validator.problems("GET /api/admin/tenants/{slug}/keys", keys)).toEqual([
      "GET /api/admin/tenants/{slug}/keys 200: header x-request-id is missing",
    ]);
  });

  it("knows every operation and which were exercised", () => {
    expect(validator.operations()).toContain("PUT /api/admin/config");
    expect(validator.operations().length).toBeGreaterThanOrEqual(16);
    expect(validator.exercised.has("GET /api/admin/tenants/{slug}/keys")).toBe(true);
    expect(validator.exercised.has("GET /api/metrics")).toBe(false);
  });
});
