import { describe, expect, it } from "vitest";
import { degradedBody, limiterBody, outcomeOf } from "@/lib/check/decision-body";
import { identityOf, matchLimits } from "@/lib/check/limit-specs";
import type { Resolved } from "@/lib/check/resolve";
import type { CompiledTenant } from "@/lib/control/config/compile";
import { summarize } from "@/lib/check/limiter/decide";
import { compiledLimit, limitDecision } from "./fixtures";

const owners = { tenantId: "T1", keyId: "K1", subject: "203.0.113.9" };

describe("counter identities", () => {
  it("counts by tenant, key or subject, per route when the limit has one", () => {
    expect(identityOf(compiledLimit("a", "tenant"), owners)).toBe("t.T1");
    expect(identityOf(compiledLimit("a", "key"), owners)).toBe("k.K1");
    expect(identityOf(compiledLimit("a", "subject"), owners)).toBe("s.203.0.113.9");
    expect(identityOf(compiledLimit("a", "key", {}, "POST /v1/search"), owners)).toBe("k.K1 POST /v1/search");
  });

  it("skips key limits without a key and subject limits without a subject", () => {
    const limits = [
      compiledLimit("t", "tenant"),
      compiledLimit("k", "key"),
      compiledLimit("s", "subject", { mode: "shadow" }),
    ];
    const none = matchLimits(limits, { tenantId: "T1", keyId: null, subject: null });
    expect(none.limits.map((l) => l.name)).toEqual(["t"]);
    expect(none.hasShadow).toBe(false);
    const all = matchLimits(limits, owners);
    expect(all.specs.map((s) => [s.id, s.tenantId, s.identity])).toEqual([
      ["t:t", "T1", "t.T1"],
      ["t:k", "T1", "k.K1"],
      ["t:s", "T1", "s.203.0.113.9"],
    ]);
    expect(all.hasShadow).toBe(true);
  });
});

function resolved(
  limits = [
    compiledLimit("open-one", "tenant"),
    compiledLimit("closed-one", "tenant", { onStoreFailure: "closed" }),
  ],
): Resolved {
  return {
    kind: "limits",
    tenant: { id: "T1", slug: "acme" } as CompiledTenant,
    keyName: "backend",
    keyId: "K1",
    route: "GET /v1/items/:id",
    keyExpiresAt: null,
    matched: matchLimits(limits, owners),
  };
}

describe("decision bodies", () => {
  it("degraded: any closed enforce limit denies with store_unavailable", () => {
    const body = degradedBody(resolved(), 9, "redis_timeout");
    expect(body).toMatchObject({
      allowed: false,
      reason: "store_unavailable",
      degraded: true,
      cause: "redis_timeout",
      configVersion: 9,
      limit: null,
      retryAfterMs: null,
    });
    expect(body.limits.map((l) => [l.name, l.allowed, l.remaining])).toEqual([
      ["open-one", true, null],
      ["closed-one", false, null],
    ]);
    expect(outcomeOf(body)).toBe("degraded");
  });

  it("degraded: open and shadow limits admit", () => {
    const body = degradedBody(
      resolved([
        compiledLimit("a", "tenant"),
        compiledLimit("b", "tenant", { mode: "shadow", onStoreFailure: "closed" }),
      ]),
      1,
      "local_overload",
    );
    expect(body).toMatchObject({ allowed: true, reason: "ok", degraded: true });
  });

  it("from the limiter: reports each limit with its verdict, and tells shadow rejections apart", () => {
    const limits = [compiledLimit("enf", "tenant"), compiledLimit("sh", "tenant", { mode: "shadow" })];
    const decision = summarize([
      limitDecision({
        id: "t:enf",
        allowed: true,
        reason: "ok",
        remaining: 4,
        resetMs: 600,
        retryAfterMs: null,
      }),
      limitDecision({ id: "t:sh", mode: "shadow", allowed: false, remaining: 0 }),
    ]);
    const body = limiterBody(resolved(limits), decision, 3);
    expect(body).toMatchObject({
      allowed: true,
      reason: "ok",
      limit: 10,
      remaining: 4,
      resetMs: 600,
      tenant: "acme",
      key: "backend",
      route: "GET /v1/items/:id",
    });
    expect(body.limits.map((l) => [l.name, l.allowed, l.mode])).toEqual([
      ["enf", true, "enforce"],
      ["sh", false, "shadow"],
    ]);
    expect(outcomeOf(body)).toBe("shadow_rejected");
    expect(outcomeOf({ ...body, allowed: false })).toBe("rejected");
  });
});
