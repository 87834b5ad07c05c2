import { afterAll, describe, expect, it } from "vitest";
import { evaluate, buildCall, readReply } from "@/lib/check/limiter/evaluate";
import { checkScript, parseReply } from "@/lib/check/limiter/script";
import { runScript } from "@/lib/shared/redis/ioredis-scripts";
import { exactnessProblem } from "@/lib/check/limiter/args";
import { ReferenceLimiter } from "@/lib/check/limiter/reference/model";
import type { CheckDecision, LimitSpec } from "@/lib/check/limiter/types";
import { createVirtualClock } from "./virtual-clock";
import { connect, RUN } from "./redis";
import { int, pick, prng, randomRule, type Random } from "./random";

// The Lua script against the reference model on random sequences of checks: random
// algorithms, numbers, costs, delay and shadow mixes, several limits per check. Time is
// integer ms on both sides and both do exact integer math, so every field must be equal:
// decision, reason, deciding limit, remaining, resetMs, retryAfterMs, waitMs, consumed.

const redis = connect();
afterAll(() => redis.quit());

const SEQUENCES = Number(process.env.LIMITER_SEQUENCES ?? 150);
const ALGORITHMS = ["fixed_window", "sliding_log", "sliding_window", "token_bucket", "leaky_bucket", "gcra"];
const REASONS = ["ok", "rate_limited", "cost_exceeds_capacity"];
const STEPS = 60;

function randomLimits(rand: Random, tenant: string, big = false): LimitSpec[] {
  const count = int(rand, 1, 4);
  return Array.from({ length: count }, (_, i) => {
    let rule = randomRule(rand, big);
    // rules whose math would pass 2^53 are refused (exactnessProblem); draw again
    while (exactnessProblem(rule)) rule = randomRule(rand, big);
    return { id: `l${i}`, tenantId: tenant, identity: pick(rand, ["k:1", "t", "s:203.0.113.9"]), rule };
  });
}

function randomStep(rand: Random, windowMs: number): number {
  const r = rand();
  if (r < 0.35) return 0;
  if (r < 0.55) return int(rand, 1, 3);
  if (r < 0.9) return int(rand, 0, Math.max(1, Math.floor(windowMs / 4)));
  return int(rand, 0, 2 * windowMs);
}

function explain(
  seed: number,
  step: number,
  limits: LimitSpec[],
  lua: CheckDecision,
  ref: CheckDecision,
): string {
  return (
    `seed ${seed} step ${step}: limits ${JSON.stringify(limits.map((l) => l.rule))}\n` +
    `lua ${JSON.stringify(lua)}\nref ${JSON.stringify(ref)}`
  );
}

describe("lua/check.lua agrees with the reference model", () => {
  // generous timeouts: thousands of round trips, on machines that may be busy
  it(
    `on ${SEQUENCES} random sequences of ${STEPS} checks (virtual clock)`,
    { timeout: 120_000 },
    async () => {
      const base = Number(process.env.LIMITER_SEED ?? Date.now() % 1_000_000);
      const seen = new Map<string, number>();
      const tally = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
      // every outcome of every algorithm, more than 5 times each, or agreeing proves little
      const outcomes = ALGORITHMS.flatMap((a) => REASONS.map((r) => `${a} ${r}`));
      const required = [...outcomes, "gcra wait", "leaky_bucket wait"];
      const covered = () => required.every((what) => (seen.get(what) ?? 0) > 5);
      // the seed is the clock's: a run short of some outcome (one fell short of the gcra
      // waits, 5 of 150) draws more sequences, up to four times as many, not failing on luck
      for (let s = 0; s < SEQUENCES || (s < 4 * SEQUENCES && !covered()); s++) {
        const seed = base + s;
        const rand = prng(seed);
        const tenant = `${RUN}d${seed}`;
        const limits = randomLimits(rand, tenant);
        const clock = createVirtualClock(
          int(rand, 0, 2) === 0 ? int(rand, 0, 5_000) : 1_790_000_000_000 + int(rand, 0, 1e9),
        );
        const model = new ReferenceLimiter(() => clock.nowMs());
        const smallest = Math.min(...limits.map((l) => l.rule.windowMs));
        for (let step = 0; step < STEPS; step++) {
          clock.advance(randomStep(rand, smallest));
          // some checks use only part of the limits (a check without subject, another route)
          const used = rand() < 0.25 ? limits.filter(() => rand() < 0.6) : limits;
          const request = { cost: rand() < 0.8 ? 1 : int(rand, 1, 25), dryRun: rand() < 0.1 };
          const lua = await evaluate(redis, used, request, { clock });
          const ref = model.check(used, request);
          if (JSON.stringify(lua) !== JSON.stringify(ref)) {
            expect.fail(explain(seed, step, used, lua, ref));
          }
          for (const d of lua.limits) {
            tally(`${d.algorithm} ${d.reason}`);
            if (d.waitMs > 0) tally(`${d.algorithm} wait`);
          }
        }
      }
      for (const what of required) expect(seen.get(what) ?? 0, what).toBeGreaterThan(5);
      console.info("differential outcomes", Object.fromEntries([...seen].sort()));
    },
  );

  it(
    "on random sequences with large numbers (limits to 1e6, windows to 365 d, costs to 1e6)",
    { timeout: 120_000 },
    async () => {
      const base = Number(process.env.LIMITER_SEED ?? Date.now() % 1_000_000);
      for (let s = 0; s < SEQUENCES / 3; s++) {
        const seed = base + s;
        const rand = prng(seed);
        const limits = randomLimits(rand, `${RUN}b${seed}`, true);
        const clock = createVirtualClock(1_790_000_000_000 + int(rand, 0, 1e9));
        const model = new ReferenceLimiter(() => clock.nowMs());
        for (let step = 0; step < STEPS; step++) {
          clock.advance(pick(rand, [0, 1, int(rand, 0, 1_000), int(rand, 0, 100_000_000)]));
          const request = {
            cost: rand() < 0.5 ? int(rand, 1, 1_000) : int(rand, 1, 1_000_000),
            dryRun: false,
          };
          const lua = await evaluate(redis, limits, request, { clock });
          const ref = model.check(limits, request);
          if (JSON.stringify(lua) !== JSON.stringify(ref)) expect.fail(explain(seed, step, limits, lua, ref));
        }
      }
    },
  );

  it(
    "on a sequence at Redis server time, fed the time the script reports",
    { timeout: 120_000 },
    async () => {
      const rand = prng(7);
      const tenant = `${RUN}real`;
      const limits = [
        {
          id: "a",
          tenantId: tenant,
          identity: "k",
          rule: {
            ...randomRule(rand),
            algorithm: "gcra" as const,
            limit: 20,
            windowMs: 200,
            burst: 5,
            mode: "enforce" as const,
          },
        },
        {
          id: "b",
          tenantId: tenant,
          identity: "t",
          rule: {
            ...randomRule(rand),
            algorithm: "sliding_window" as const,
            limit: 30,
            windowMs: 300,
            mode: "enforce" as const,
          },
        },
        {
          id: "c",
          tenantId: tenant,
          identity: "t",
          rule: {
            ...randomRule(rand),
            algorithm: "sliding_log" as const,
            limit: 10,
            windowMs: 150,
            mode: "enforce" as const,
          },
        },
        {
          id: "d",
          tenantId: tenant,
          identity: "k",
          rule: {
            ...randomRule(rand),
            algorithm: "leaky_bucket" as const,
            limit: 40,
            windowMs: 1000,
            burst: null,
            mode: "shadow" as const,
          },
        },
      ];
      let now = 0;
      const model = new ReferenceLimiter(() => now);
      let allowed = 0;
      for (let i = 0; i < 400; i++) {
        const request = { cost: int(rand, 1, 3), dryRun: false };
        const call = buildCall(limits, request);
        const reply = parseReply(await runScript(redis, checkScript(), call.keys, call.args));
        now = reply[1] ?? 0;
        const lua = readReply(limits, reply);
        expect(lua).toEqual(model.check(limits, request));
        if (lua.allowed) allowed++;
        await new Promise((resolve) => setTimeout(resolve, int(rand, 0, 3)));
      }
      expect(allowed).toBeGreaterThan(20);
      expect(allowed).toBeLessThan(400);
    },
  );
});
