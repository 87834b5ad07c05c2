import { afterAll, describe, expect, it } from "vitest";
import { evaluate } from "@/lib/check/limiter/evaluate";
import { exactnessProblem } from "@/lib/check/limiter/args";
import { limitKey } from "@/lib/check/limiter/keys";
import { specArgs } from "@/lib/check/limiter/spec-args";
import { AdjustableReferenceLimiter, type ModelTicket } from "@/lib/check/adjust/reference-model";
import { evaluateAdjust } from "@/lib/check/adjust/adjust-call";
import { ticketOf, type CheckTicket } from "@/lib/check/adjust/ticket";
import { ALGORITHMS } from "@/lib/shared/limit-types";
import type { LimitSpec } from "@/lib/check/limiter/types";
import { createVirtualClock } from "./virtual-clock";
import { connect, RUN } from "./redis";
import { int, pick, prng, randomRule, type Random } from "./random";

// lua/adjust/*.lua against the reference model (lib/check/adjust/reference-model.ts):
// random checks, then charges and refunds of random earlier checks, with retried
// idempotency keys, at random times. Every check decision and every adjustment reply must
// be equal on both sides, for every algorithm, and every adjustment effect must be seen.

const redis = connect();
afterAll(() => redis.quit());

const SEQUENCES = Number(process.env.LIMITER_SEQUENCES ?? 150) / 2;
const STEPS = 60;

function randomLimits(rand: Random, tenant: string): LimitSpec[] {
  const count = int(rand, 1, 3);
  return Array.from({ length: count }, (_, i) => {
    let rule = randomRule(rand);
    while (exactnessProblem(rule)) rule = randomRule(rand);
    return { id: `l${i}`, tenantId: tenant, identity: pick(rand, ["k:1", "t", "s:a"]), rule };
  });
}

interface Issued {
  lua: CheckTicket;
  mac: string;
  model: ModelTicket;
}

describe("lua/adjust/adjust.lua agrees with the reference model", () => {
  it(
    `on ${SEQUENCES} random sequences of checks and adjustments (virtual clock)`,
    { timeout: 120_000 },
    async () => {
      const base = Number(process.env.LIMITER_SEED ?? Date.now() % 1_000_000);
      const seen = new Map<string, number>();
      const tally = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
      const required = [
        // a concurrency limit holds a lease, never units: it is never in a check id
        ...ALGORITHMS.filter((a) => a !== "concurrency").flatMap((a) =>
          ["applied", "clamped", "none"].map((e) => `${a} ${e}`),
        ),
        "replayed",
        "over_refund",
        "expired",
      ];
      const covered = () => required.every((what) => (seen.get(what) ?? 0) > 3);
      for (let s = 0; s < SEQUENCES || (s < 6 * SEQUENCES && !covered()); s++) {
        const seed = base + s;
        const rand = prng(seed);
        const tenant = `${RUN}a${seed}`;
        const limits = randomLimits(rand, tenant);
        const clock = createVirtualClock(1_790_000_000_000 + int(rand, 0, 1e9));
        const model = new AdjustableReferenceLimiter(() => clock.nowMs());
        const smallest = Math.min(...limits.map((l) => l.rule.windowMs));
        const issued: Issued[] = [];
        for (let step = 0; step < STEPS; step++) {
          const r = rand();
          clock.advance(
            r < 0.4
              ? 0
              : r < 0.8
                ? int(rand, 0, Math.max(1, smallest))
                : r < 0.97
                  ? int(rand, 0, 3 * smallest)
                  : 400_000,
          );
          const where = `seed ${seed} step ${step}: ${JSON.stringify(limits.map((l) => l.rule))}`;
          if (issued.length === 0 || rand() < 0.5) {
            const request = { cost: rand() < 0.7 ? 1 : int(rand, 1, 8), dryRun: false };
            const lua = await evaluate(redis, limits, request, { clock });
            const ref = model.check(limits, request);
            expect(lua, where).toEqual(ref);
            if (!lua.allowed) continue;
            const at = clock.nowMs();
            const consumed = (i: number) => lua.limits[i]?.consumed === true;
            const ticket = ticketOf(
              tenant,
              at,
              request.cost,
              limits.map(limitKey),
              limits.map((spec) => specArgs(spec, at)),
              consumed,
            );
            if (ticket === null) continue;
            const id = `${seed}-${step}`;
            issued.push({
              lua: ticket,
              mac: id,
              model: { id, at, cost: request.cost, limits: limits.filter((_, i) => consumed(i)) },
            });
            continue;
          }
          const target = pick(rand, issued);
          const amount = rand() < 0.5 ? -int(rand, 1, 10) : int(rand, 1, rand() < 0.1 ? 2_000_000 : 25);
          const request = { amount, idempotencyKey: pick(rand, ["", "a", "b", String(step)]) };
          const lua = await evaluateAdjust(redis, target.lua, target.mac, request, { clock });
          const ref = model.adjust(target.model, request);
          expect(lua, `${where} adjust ${JSON.stringify(request)}`).toEqual(ref);
          if (lua.status !== "applied") tally(lua.status);
          lua.effects.forEach((e, i) => {
            if (lua.status === "applied") tally(`${target.model.limits[i]?.rule.algorithm} ${e}`);
          });
        }
      }
      for (const what of required) expect(seen.get(what) ?? 0, what).toBeGreaterThan(3);
      console.info("adjust outcomes", Object.fromEntries([...seen].sort()));
    },
  );
});
