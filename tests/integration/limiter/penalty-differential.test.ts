import { afterAll, describe, expect, it } from "vitest";
import { evaluate, readReply } from "@/lib/check/limiter/evaluate";
import { buildManyCall, prepareCheck } from "@/lib/check/limiter/evaluate-many";
import { checkManyScript, parseReply } from "@/lib/check/limiter/script";
import { runScript } from "@/lib/shared/redis/ioredis-scripts";
import { exactnessProblem } from "@/lib/check/limiter/args";
import { ReferenceLimiter } from "@/lib/check/limiter/reference/model";
import { PENALTY_ALGORITHMS, type Penalty } from "@/lib/shared/limit-types";
import type { CheckDecision, LimitSpec } from "@/lib/check/limiter/types";
import { createVirtualClock } from "./virtual-clock";
import { connect, RUN } from "./redis";
import { int, pick, prng, randomRule, type Random } from "./random";

// Penalties (docs/algorithms.md, Penalties) in lua/run-check.lua against the reference
// model: random limits with and without penalties (fixed and growing), shadow and dry-run
// mixes, several limits per check, through check.lua and check-many.lua. Every field must be
// equal, and the runs must meet blocks started, blocks in force and grown blocks.

const redis = connect();
afterAll(() => redis.quit());

const SEQUENCES = Number(process.env.LIMITER_SEQUENCES ?? 150);
const STEPS = 60;

function randomPenalty(rand: Random): Penalty {
  const blockMs = pick(rand, [1, 5, 50, 200, 1_000]);
  if (rand() < 0.4) return { blockMs, grow: 1, maxMs: blockMs, windowMs: 0 };
  const grow = pick(rand, [1.5, 2, 3, 1.25, 10]);
  return {
    blockMs,
    grow,
    maxMs: blockMs * int(rand, 1, 20),
    windowMs: pick(rand, [10, 500, 5_000, 86_400_000]),
  };
}

function randomLimits(rand: Random, tenant: string): LimitSpec[] {
  const count = int(rand, 1, 3);
  return Array.from({ length: count }, (_, i) => {
    let rule = randomRule(rand);
    while (exactnessProblem(rule) || !PENALTY_ALGORITHMS.includes(rule.algorithm)) rule = randomRule(rand);
    if (i === 0 || rand() < 0.5) rule = { ...rule, penalty: randomPenalty(rand) };
    return { id: `p${i}`, tenantId: tenant, identity: pick(rand, ["k:1", "t", "s:203.0.113.9"]), rule };
  });
}

function randomStep(rand: Random): number {
  const r = rand();
  if (r < 0.4) return 0;
  if (r < 0.7) return int(rand, 1, 20);
  if (r < 0.95) return int(rand, 0, 1_500);
  return int(rand, 0, 20_000);
}

async function viaMany(
  limits: LimitSpec[],
  request: { cost: number; dryRun: boolean },
  clock: ReturnType<typeof createVirtualClock>,
): Promise<CheckDecision> {
  const call = buildManyCall([prepareCheck({ limits, request })], { clock });
  return readReply(limits, parseReply(await runScript(redis, checkManyScript(), call.keys, call.args)));
}

describe("penalties in the Lua agree with the reference model", () => {
  it(
    `on ${SEQUENCES} random sequences of ${STEPS} checks (virtual clock)`,
    { timeout: 120_000 },
    async () => {
      const base = Number(process.env.LIMITER_SEED ?? Date.now() % 1_000_000);
      const seen = new Map<string, number>();
      const tally = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
      for (let s = 0; s < SEQUENCES; s++) {
        const seed = base + s;
        const rand = prng(seed);
        const limits = randomLimits(rand, `${RUN}p${seed}`);
        const clock = createVirtualClock(1_790_000_000_000 + int(rand, 0, 1e9));
        const model = new ReferenceLimiter(() => clock.nowMs());
        const lastRetry = new Map<string, number>();
        for (let step = 0; step < STEPS; step++) {
          clock.advance(randomStep(rand));
          const used = rand() < 0.25 ? limits.filter(() => rand() < 0.6) : limits;
          const request = { cost: rand() < 0.85 ? 1 : int(rand, 1, 25), dryRun: rand() < 0.1 };
          const lua =
            rand() < 0.5 || used.length === 0
              ? await evaluate(redis, used, request, { clock })
              : await viaMany(used, request, clock);
          const ref = model.check(used, request);
          if (JSON.stringify(lua) !== JSON.stringify(ref))
            expect.fail(
              `seed ${seed} step ${step}: limits ${JSON.stringify(used.map((l) => l.rule))}\nlua ${JSON.stringify(lua)}\nref ${JSON.stringify(ref)}`,
            );
          for (const [i, d] of lua.limits.entries()) {
            tally(d.reason);
            const id = (used[i] as LimitSpec).id;
            if (d.reason === "penalty" && d.retryAfterMs !== null) {
              const before = lastRetry.get(id);
              // a block longer than the rule's first one: grown
              const first = (used[i] as LimitSpec).rule.penalty?.blockMs ?? 0;
              if (d.retryAfterMs > first) tally("grown");
              if (before !== undefined && d.retryAfterMs < before) tally("in force");
              lastRetry.set(id, d.retryAfterMs);
            }
          }
        }
      }
      console.info("penalty outcomes", Object.fromEntries([...seen].sort()));
      for (const what of ["penalty", "rate_limited", "ok", "grown", "in force"])
        expect(seen.get(what) ?? 0, what).toBeGreaterThan(5);
    },
  );

  it("a growing block: 50, 100, 200, 250 (max), then 50 again after the window", async () => {
    const clock = createVirtualClock(1_790_000_000_000);
    const spec: LimitSpec = {
      id: "g",
      tenantId: `${RUN}grow`,
      identity: "s:1",
      rule: {
        algorithm: "fixed_window",
        limit: 1,
        windowMs: 10,
        burst: null,
        action: "reject",
        maxDelayMs: null,
        mode: "enforce",
        onStoreFailure: "open",
        penalty: { blockMs: 50, grow: 2, maxMs: 250, windowMs: 1_000 },
      },
    };
    const model = new ReferenceLimiter(() => clock.nowMs());
    const blocks: number[] = [];
    const check = async () => {
      const request = { cost: 1, dryRun: false };
      const lua = await evaluate(redis, [spec], request, { clock });
      expect(lua).toEqual(model.check([spec], request));
      return lua;
    };
    for (let round = 0; round < 4; round++) {
      expect((await check()).allowed).toBe(true);
      const denied = await check();
      expect(denied.reason).toBe("penalty");
      blocks.push(denied.retryAfterMs ?? -1);
      // during the block: denied, nothing extends it
      clock.advance(1);
      expect((await check()).retryAfterMs).toBe((denied.retryAfterMs ?? 0) - 1);
      clock.advance((denied.retryAfterMs ?? 0) + 20);
    }
    expect(blocks).toEqual([50, 100, 200, 250]);
    clock.advance(1_000);
    await check();
    expect((await check()).retryAfterMs).toBe(50);
  });
});
