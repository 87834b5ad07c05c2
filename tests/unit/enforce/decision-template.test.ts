import { asciiJson } from "@/lib/shared/ascii-json";
import { describe, expect, it } from "vitest";
import type { CompiledLimit } from "@/lib/control/config/compile";
import { limiterBody } from "@/lib/check/decision-body";
import { DecisionTemplate } from "@/lib/check/render/decision-template";
import { renderBody } from "@/lib/check/render/rendered";
import type { Resolved } from "@/lib/check/resolve";
import { readReply } from "@/lib/check/limiter/evaluate";
import type { CheckDecision, LimitSpec } from "@/lib/check/limiter/types";
import { int, pick, prng, randomRule, type Random } from "../../integration/limiter/random";
import { HEADER_FLAVOURS } from "@/lib/shared/config-terms";

// The template renders a decision straight from the script's integers; it must give exactly
// what the object path gives (readReply -> summarize -> limiterBody -> asciiJson and
// rateLimitHeaders), character for character, for any limits and any reply, also aged as
// the deny cache ages it.

/** How the deny cache ages a stored denial at `now` (the definition the template must meet). */
function agedDecision(
  entry: { decision: CheckDecision; sentAt: number; until: number },
  now: number,
): CheckDecision {
  const elapsed = Math.max(0, Math.floor(now - entry.sentAt));
  const age = (ms: number | null): number | null => (ms === null ? null : Math.max(0, ms - elapsed));
  const limits = entry.decision.limits.map((limit) => ({
    ...limit,
    resetMs: Math.max(0, limit.resetMs - elapsed),
    retryAfterMs: age(limit.retryAfterMs),
  }));
  return {
    ...entry.decision,
    resetMs: age(entry.decision.resetMs),
    retryAfterMs: Math.max(1, Math.ceil(entry.until - now)),
    limits,
  };
}

const LEVELS = ["plan", "tenant", "key", "route"] as const;
const BYS = ["tenant", "key", "subject"] as const;

function randomLimits(rand: Random): CompiledLimit[] {
  return Array.from({ length: int(rand, 0, 5) }, (_, i) => ({
    id: `t:l${i}`,
    name: `l${i}-${pick(rand, ["rps", "rpm", "burst"])}`,
    level: pick(rand, LEVELS),
    by: pick(rand, BYS),
    route: null,
    rule: randomRule(rand, rand() < 0.5),
    provenance: [],
    // a temporary override in force is rendered as limits[].override
    ...(rand() < 0.2
      ? { override: { id: `o${i}`, endsAt: "2026-11-27T18:00:00.000Z", blocked: false } }
      : {}),
  }));
}

/** A reply the script could give: statuses, then allowed = every enforce limit admits. */
function randomReply(rand: Random, limits: CompiledLimit[]): number[] {
  const reply = [1, 1_790_000_000_000];
  let allowed = 1;
  for (const limit of limits) {
    const status = pick(rand, [1, 1, 1, 0, 0, 2]);
    if (status !== 1 && limit.rule.mode === "enforce") allowed = 0;
    const retry = status === 0 ? pick(rand, [-1, int(rand, 0, 5), int(rand, 0, 90_000)]) : -1;
    reply.push(
      status,
      rand() < 0.5 ? 1 : 0,
      int(rand, 0, 100),
      int(rand, 0, 100_000),
      retry,
      int(rand, 0, 3),
    );
  }
  reply[0] = allowed;
  return reply;
}

function resolvedOf(limits: CompiledLimit[], rand: Random): { resolved: Resolved; specs: LimitSpec[] } {
  const specs = limits.map((limit) => ({ id: limit.id, tenantId: "t1", identity: "k.1", rule: limit.rule }));
  const resolved = {
    kind: "limits",
    tenant: { id: "t1", slug: "acme" },
    keyName: rand() < 0.5 ? "backend" : null,
    keyId: null,
    route: rand() < 0.5 ? 'GET /v1/items/:id "quoted" café' : null,
    keyExpiresAt: null,
    matched: {
      limits,
      specs,
      hasShadow: limits.some((l) => l.rule.mode === "shadow"),
      hasLocal: false,
      hasLease: false,
    },
  } as unknown as Resolved;
  return { resolved, specs };
}

describe("DecisionTemplate", () => {
  it("renders what limiterBody + asciiJson + rateLimitHeaders give, on 3000 random replies", () => {
    const rand = prng(20261123);
    for (let run = 0; run < 3000; run++) {
      // every header flavour, the default most often
      const flavour = run % 2 === 0 ? "draft-11" : pick(rand, HEADER_FLAVOURS);
      const limits = randomLimits(rand);
      const { resolved, specs } = resolvedOf(limits, rand);
      const version = int(rand, 1, 500);
      const reply = randomReply(rand, limits);
      // the check's reply somewhere inside a longer check-many reply
      const padding = Array.from({ length: int(rand, 0, 2) * 8 }, () => 7);
      const who = { tenant: "acme", route: resolved.route };
      const template = new DecisionTemplate(limits, who, version, flavour);
      const keyJson = asciiJson(resolved.keyName);
      const fast = template.render([...padding, ...reply, 9, 9], padding.length, keyJson);
      const slow = renderBody(limiterBody(resolved, readReply(specs, reply), version), flavour, reply[1]);
      expect(fast, `run ${run} (${flavour})`).toEqual(slow);
    }
  });

  it("ages a denial as the deny cache does", () => {
    const rand = prng(7);
    for (let run = 0; run < 1000; run++) {
      const flavour = run % 2 === 0 ? "draft-11" : pick(rand, HEADER_FLAVOURS);
      const limits = randomLimits(rand);
      const { resolved, specs } = resolvedOf(limits, rand);
      const reply = randomReply(rand, limits);
      const decision = readReply(specs, reply);
      if (decision.allowed || decision.retryAfterMs === null) continue;
      const sentAt = 1_000;
      const until = sentAt + decision.retryAfterMs;
      const now = sentAt + int(rand, 0, 2 * decision.retryAfterMs + 5) + rand();
      const entry = { decision, cost: 1, sentAt, until };
      const elapsed = Math.max(0, Math.floor(now - sentAt));
      const retry = Math.max(1, Math.ceil(until - now));
      const template = new DecisionTemplate(limits, { tenant: "acme", route: resolved.route }, 3, flavour);
      // the limiter's clock moves on with the deny cache's elapsed time (legacy-epoch's reset)
      const nowMs = (reply[1] as number) + elapsed;
      expect(
        template.render(reply, 0, asciiJson(resolved.keyName), elapsed, retry),
        `run ${run} (${flavour})`,
      ).toEqual(renderBody(limiterBody(resolved, agedDecision(entry, now), 3), flavour, nowMs));
    }
  });

  it("refuses a reply whose verdict disagrees with its limits, or a status it does not know", () => {
    const rand = prng(1);
    const limits = [
      { ...randomLimits(prng(2))[0], rule: { ...randomRule(rand), mode: "enforce" } } as CompiledLimit,
    ];
    const template = new DecisionTemplate(limits, { tenant: "a", route: null }, 1);
    expect(() => template.render([1, 0, 0, 0, 5, 10, 100, 0], 0, "null")).toThrow(/disagrees/);
    expect(() => template.render([1, 0, 4, 0, 5, 10, 100, 0], 0, "null")).toThrow(/bad status/);
  });
});
