import { describe, expect, expectTypeOf, it } from "vitest";
import {
  HEADER_FLAVOURS as CLIENT_FLAVOURS,
  rateLimitHeaders as clientHeaders,
  createClient,
  sluiceExpress,
  type CheckRequest,
  type Decision,
  type HeaderFlavour,
} from "@sluice/client";
import { renderBody } from "@/lib/check/render/rendered";
import { HEADER_FLAVOURS } from "@/lib/shared/config-terms";
import { rateLimitHeaders as serverHeaders } from "@/lib/check/headers";
import { parseCheck } from "@/lib/check/body-schema";
import type { DecisionBody } from "@/lib/check/types";

// The client's types and header rule held against the server's own: a field renamed or a
// header changed on one side fails here.

const body: DecisionBody = {
  allowed: false,
  reason: "rate_limited",
  tenant: "acme",
  key: "backend",
  route: "GET /users/:id",
  limit: 3,
  remaining: 0,
  resetMs: 1_500,
  retryAfterMs: 1_499,
  waitMs: 0,
  limits: [
    {
      name: "a",
      level: "route",
      by: "key",
      algorithm: "gcra",
      limit: 3,
      windowMs: 500,
      remaining: 0,
      resetMs: 1_500,
      allowed: false,
      mode: "enforce",
    },
    {
      name: "b",
      level: "tenant",
      by: "tenant",
      algorithm: "token_bucket",
      limit: 9,
      windowMs: 60_000,
      remaining: 4,
      resetMs: 10,
      allowed: true,
      mode: "shadow",
    },
    {
      name: "c",
      level: "plan",
      by: "subject",
      algorithm: "sliding_log",
      limit: 5,
      windowMs: 10_000,
      remaining: null,
      resetMs: null,
      allowed: true,
      mode: "enforce",
    },
  ],
  degraded: false,
  configVersion: 7,
};

describe("client contract", () => {
  it("Decision is the server's DecisionBody (the client adds only its own reason)", () => {
    expectTypeOf<DecisionBody>().toExtend<Decision>();
    expectTypeOf<Omit<Decision, "reason">>().toEqualTypeOf<Omit<DecisionBody, "reason">>();
  });

  it("every CheckRequest field is one the server accepts", () => {
    const check: Required<CheckRequest & { apiKey: string }> = {
      apiKey: "sk_x",
      route: "GET /users/:id",
      subject: "10.0.0.1",
      cost: 2,
      dryRun: true,
    } as Required<CheckRequest & { apiKey: string }>;
    expect(parseCheck(check).ok).toBe(true);
    expect(parseCheck({ tenant: "acme", key: "backend" } satisfies CheckRequest).ok).toBe(true);
  });

  it("the RateLimit headers are the server's, field for field", () => {
    for (const decision of [body, { ...body, allowed: true, reason: "ok" as const, retryAfterMs: null }]) {
      const server = serverHeaders(decision);
      const expected: Record<string, string> = {};
      if (server.policy) expected["RateLimit-Policy"] = server.policy;
      if (server.rateLimit) expected["RateLimit"] = server.rateLimit;
      if (server.retryAfter) expected["Retry-After"] = server.retryAfter;
      expect(clientHeaders(decision)).toEqual(expected);
    }
  });

  it("every header flavour is the server's, field for field", () => {
    expect(CLIENT_FLAVOURS).toEqual(HEADER_FLAVOURS);
    const now = 1_790_000_000_123;
    const limits = body.limits;
    const allowed = { ...body, allowed: true, reason: "ok" as const, retryAfterMs: null };
    const decisions: DecisionBody[] = [
      body,
      allowed,
      // the binding limit: the least remaining share (4/10 against 300/1000), then the later reset
      {
        ...allowed,
        limits: [
          { ...limits[0]!, limit: 10, remaining: 4, resetMs: 700, allowed: true },
          {
            ...limits[0]!,
            name: "d",
            limit: 1000,
            windowMs: 60_000,
            remaining: 300,
            resetMs: 40_000,
            allowed: true,
          },
          {
            ...limits[0]!,
            name: "e",
            limit: 100,
            windowMs: 60_000,
            remaining: 30,
            resetMs: 50_000,
            allowed: true,
          },
        ],
      },
      { ...allowed, limits: [] },
    ];
    for (const flavour of HEADER_FLAVOURS) {
      for (const decision of decisions) {
        const server: Record<string, string> = {};
        for (const line of renderBody(decision, flavour, now).headers.split("\r\n")) {
          const at = line.indexOf(": ");
          if (at > 0) server[line.slice(0, at)] = line.slice(at + 2);
        }
        const client = Object.fromEntries(
          Object.entries(clientHeaders(decision, flavour, now)).map(([name, value]) => [
            name.toLowerCase(),
            value,
          ]),
        );
        expect(client, flavour).toEqual(server);
      }
    }
  });

  it("refuses an unknown flavour, naming the option", () => {
    const bad = "draft-8" as HeaderFlavour;
    expect(() => createClient({ url: "http://sluice.internal", token: "st_x", headers: bad })).toThrow(
      /^headers: must be one of draft-11, draft-7, draft-6, legacy, legacy-epoch, got draft-8$/,
    );
    const client = createClient({ url: "http://sluice.internal", token: "st_x" });
    expect(() => sluiceExpress({ client, headers: bad })).toThrow(/^headers: must be one of/);
  });
});
