// The limit a rejection is counted on, read off the answer's JSON on the check path
// (lib/usage/record/denying-limit.ts): on answers rendered by the real template, it must
// name what a full JSON parse names, the first enforce limit not allowed (the decision
// log's "denied by"), with its level and by.
import { describe, expect, it } from "vitest";
import type { CompiledLimit } from "@/lib/control/config/compile";
import { DecisionTemplate } from "@/lib/check/render/decision-template";
import { asciiJson } from "@/lib/shared/ascii-json";
import { denyingLimit, parseDenyingLimit } from "@/lib/usage/record/denying-limit";
import { int, pick, prng, randomRule, type Random } from "../../integration/limiter/random";

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
    ...(rand() < 0.2
      ? { override: { id: `o${i}`, endsAt: "2026-11-27T18:00:00.000Z", blocked: false } }
      : {}),
  }));
}

/** A reply as lua/check.lua gives it: allowed, now, then six integers per limit. */
function randomReply(rand: Random, limits: CompiledLimit[]): number[] {
  const reply = [1, 1_790_000_000_000];
  for (const limit of limits) {
    const status = pick(rand, [1, 1, 0, 0, 2]);
    if (status !== 1 && limit.rule.mode === "enforce") reply[0] = 0;
    reply.push(status, 1, int(rand, 0, 100), int(rand, 0, 100_000), status === 0 ? 500 : -1, 0);
  }
  return reply;
}

const bodyLimits = (json: string) =>
  (
    JSON.parse(json) as {
      limits: { name: string; level: string; by: string; allowed: boolean; mode: string }[];
    }
  ).limits;

describe("denyingLimit", () => {
  it("names what a JSON parse of the answer names, on 3000 rendered answers", () => {
    const rand = prng(20261212);
    let denied = 0;
    for (let run = 0; run < 3000; run++) {
      const limits = randomLimits(rand);
      const who = { tenant: "acme", route: rand() < 0.5 ? 'POST /v1/ingest "x" {id}' : null };
      const template = new DecisionTemplate(limits, who, 7);
      const { json } = template.render(randomReply(rand, limits), 0, asciiJson("backend"));
      const first = bodyLimits(json).find((l) => !l.allowed && l.mode === "enforce");
      const text = denyingLimit(json);
      if (!first) {
        expect(text, `run ${run}`).toBeNull();
        continue;
      }
      denied++;
      expect(parseDenyingLimit(text ?? ""), `run ${run}`).toEqual({
        name: first.name,
        level: first.level,
        by: first.by,
      });
    }
    // the runs did exercise denials
    expect(denied).toBeGreaterThan(1000);
  });

  it("names nothing for answers without a denying limit, and parses only its own text", () => {
    expect(denyingLimit(undefined)).toBeNull();
    // a deny list's answer: no limits at all
    expect(denyingLimit('{"allowed":false,"reason":"deny_list","limits":[],"degraded":false}')).toBeNull();
    // a shadow limit's denial admits the check
    expect(
      denyingLimit(
        '{"allowed":true,"limits":[{"name":"s","level":"key","by":"key","algorithm":"gcra","limit":1,"windowMs":1,"remaining":0,"resetMs":1,"allowed":false,"mode":"shadow"}]}',
      ),
    ).toBeNull();
    expect(parseDenyingLimit('"x","level":"nowhere","by":"key"')).toBeNull();
    expect(parseDenyingLimit("not json")).toBeNull();
  });
});
